package io.remus.tools.cli;

import io.remus.core.sim.SimFabric;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus bench reclaim} as three processes of one cluster under a launcher: three commands in
 * one JVM, each with an Open MPI rank in its environment, joining one shared simulator fabric.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReclaimBenchClusterCommandTest {
    private static final LauncherRanks.Factory COMMANDS =
            (env, setup) -> new ReclaimBenchCommand(ToolRun.NO_DEVICE, env, setup);

    @Test
    void shouldPrintOneAggregatedReportOnNodeZeroWhenALauncherStartsThreeProcesses() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<LauncherRanks.Run> runs = LauncherRanks.onRanks(COMMANDS, fabric, 3, "--json", "--reclaimer",
                    "epoch,barrier", "-D", "0.3", "--warmup", "0.1", "--threads", "2", "--segment-mib", "16",
                    "--join-timeout", "30");
            for (LauncherRanks.Run r : runs) {
                assertEquals(0, r.exit(), r.err());
            }
            assertFalse(runs.get(0).out().isBlank(), "node 0 prints the report");
            assertTrue(runs.get(1).out().isBlank() && runs.get(2).out().isBlank(), "the other nodes print nothing");
            assertAggregated(runs.get(0).out(), 3, "epoch", "barrier");
        }
    }

    /**
     * Checks node 0's JSON report: one line, one run per label in order, each over {@code nodes}
     * nodes, whose operations are the sum of the nodes' (in the notes), whose peak lies between the
     * largest node peak and the sum of the node peaks, and no read that found freed memory.
     *
     * @param out    node 0's standard output
     * @param nodes  the cluster's size
     * @param labels the runs' labels, in run order
     */
    static void assertAggregated(String out, int nodes, String... labels) {
        String json = out.strip();
        assertEquals(1, json.lines().count(), json);
        assertEquals(Collections.nCopies(labels.length, (long) nodes), LauncherRanks.numbers(json, "nodes"), json);
        assertTrue(json.contains("one process per node: " + nodes + " nodes"), json);
        List<Long> operations = LauncherRanks.numbers(json, "operations");
        List<Long> peaks = LauncherRanks.numbers(json, "peak_unreclaimed_bytes");
        assertEquals(labels.length, operations.size(), json);
        for (int k = 0; k < labels.length; k++) {
            Matcher byNode = Pattern.compile(labels[k] + ": ops by node: ([0-9, ]+); peak unreclaimed bytes by node: "
                    + "([0-9, ]+)\"").matcher(json);
            assertTrue(byNode.find(), json);
            List<Long> ops = List.of(byNode.group(1).split(", ")).stream().map(Long::parseLong).toList();
            List<Long> nodePeaks = List.of(byNode.group(2).split(", ")).stream().map(Long::parseLong).toList();
            assertEquals(nodes, ops.size(), json);
            assertTrue(ops.stream().allMatch(o -> o > 0), labels[k] + ": every node churned: " + json);
            assertEquals(operations.get(k), ops.stream().mapToLong(Long::longValue).sum(),
                    labels[k] + ": the run's operations are the nodes' sum: " + json);
            long maxPeak = nodePeaks.stream().mapToLong(Long::longValue).max().orElseThrow();
            long sumPeaks = nodePeaks.stream().mapToLong(Long::longValue).sum();
            assertTrue(peaks.get(k) >= maxPeak && peaks.get(k) <= sumPeaks, labels[k] + ": " + json);
        }
        assertEquals(Collections.nCopies(labels.length, 0L), LauncherRanks.numbers(json, "violations"), json);
    }

    @Test
    void shouldExitWithUsageWhenTheFlagsOfOneProcessPerNodeAreBad() {
        try (SimFabric fabric = new SimFabric()) {
            LauncherRanks.Run sim = LauncherRanks.run(COMMANDS, fabric, Map.of(), "--cluster", "--fabric", "SIM");
            assertEquals(2, sim.exit(), sim.err());
            assertTrue(sim.err().contains("--fabric sim runs every node in this JVM"), sim.err());
            LauncherRanks.Run nodes = LauncherRanks.run(COMMANDS, fabric, Map.of("REMUS_NODES", "a,b,c"), "--cluster", "--node-id=0", "--nodes", "2");
            assertEquals(2, nodes.exit(), nodes.err());
            assertTrue(nodes.err().contains("--nodes 2, but the cluster has 3 nodes"), nodes.err());
            LauncherRanks.Run unknown = LauncherRanks.run(COMMANDS, fabric, Map.of(), "--bogus-key=1", "-D", "0.1");
            assertEquals(2, unknown.exit(), unknown.err());
            assertTrue(unknown.err().contains("reclaim does not know go to RemusCluster.join, which refuses "
                    + "[--bogus-key=1]"), unknown.err());
            LauncherRanks.Run noCluster = LauncherRanks.run(COMMANDS, fabric, Map.of(), "--no-cluster", "--node-id=1");
            assertEquals(2, noCluster.exit(), noCluster.err());
            assertTrue(noCluster.err().contains("unknown option(s) [--node-id=1]"), noCluster.err());
        }
    }

    @Test
    void shouldFollowTheRuleOfBenchLockForTheClusterMode() {
        ReclaimBenchCommand underPmi = new ReclaimBenchCommand(ToolRun.NO_DEVICE, Map.of("PMI_RANK", "2", "PMI_SIZE", "3"),
                b -> b);
        CommandLine cmd = new CommandLine(underPmi);
        cmd.parseArgs("--threads", "1");
        assertTrue(underPmi.clusterMode(), "a launcher's rank of three processes");
        cmd.parseArgs("--no-cluster");
        assertFalse(underPmi.clusterMode(), "--no-cluster overrides the launcher");
        cmd.parseArgs("--no-cluster", "--hostfile=/tmp/x");
        assertFalse(underPmi.clusterMode(), "--no-cluster overrides join arguments");
        RemusRun help = RemusRun.of("bench", "reclaim", "--help");
        assertEquals(0, help.exit(), help.err());
        assertTrue(help.out().contains("--[no-]cluster") && help.out().contains("--join-timeout"), help.out());
        assertTrue(help.out().contains("OMPI_COMM_WORLD_RANK") && help.out().contains("SLURM_PROCID"), help.out());
    }
}
