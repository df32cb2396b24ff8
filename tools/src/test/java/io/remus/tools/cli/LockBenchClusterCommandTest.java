package io.remus.tools.cli;

import io.remus.core.sim.SimFabric;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus bench lock} as three processes of one cluster under a launcher: three commands in one
 * JVM, each with an Open MPI rank in its environment, joining one shared simulator fabric.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LockBenchClusterCommandTest {
    private static final LauncherRanks.Factory COMMANDS = (env, setup) -> new LockBenchCommand(ToolRun.NO_DEVICE, env, setup);

    @Test
    void shouldPrintOneAggregatedReportOnNodeZeroWhenALauncherStartsThreeProcesses() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<LauncherRanks.Run> runs = LauncherRanks.onRanks(COMMANDS, fabric, 3, "--json", "--lock", "alock,spin",
                    "--keys", "9", "-D", "0.2", "--warmup", "0.1", "--threads", "2", "--join-timeout", "30");
            for (LauncherRanks.Run r : runs) {
                assertEquals(0, r.exit(), r.err());
            }
            assertFalse(runs.get(0).out().isBlank(), "node 0 prints the report");
            assertTrue(runs.get(1).out().isBlank() && runs.get(2).out().isBlank(), "the other nodes print nothing");
            String json = runs.get(0).out().strip();
            assertEquals(1, json.lines().count(), json);
            assertEquals(List.of(3L, 3L), LauncherRanks.numbers(json, "nodes"), json);
            List<Long> operations = LauncherRanks.numbers(json, "operations");
            List<Long> counts = LauncherRanks.numbers(json, "count");
            assertEquals(2, operations.size(), json);
            assertTrue(operations.stream().allMatch(o -> o > 0), json);
            assertEquals(operations, counts, "each run's merged histogram holds every pair: " + json);
            assertTrue(json.contains("one process per node: 3 nodes"), json);
            Matcher byNode = Pattern.compile("alock, p-local 0.9, 9 keys: pairs by node: ([0-9]+), ([0-9]+), ([0-9]+)\"")
                    .matcher(json);
            assertTrue(byNode.find(), json);
            long sum = 0;
            for (int g = 1; g <= 3; g++) {
                assertTrue(Long.parseLong(byNode.group(g)) > 0, "node " + (g - 1) + " ran pairs: " + json);
                sum += Long.parseLong(byNode.group(g));
            }
            assertEquals(operations.get(0), sum, "the run's pairs are the sum of the nodes' pairs: " + json);
        }
    }

    @Test
    void shouldExitWithUsageWhenAJoinArgumentIsUnknown() {
        try (SimFabric fabric = new SimFabric()) {
            LauncherRanks.Run r = LauncherRanks.run(COMMANDS, fabric, Map.of(), "--bogus-key=1", "-D", "0.1");
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().contains("bogus.key") || r.err().contains("bogus-key"), r.err());
            assertTrue(r.err().contains("lock does not know go to RemusCluster.join"), "RemusCluster.join refused it: " + r.err());
        }
    }

    @Test
    void shouldDescribeTheRuleOfTheClusterModeInTheHelp() {
        RemusRun r = RemusRun.of("bench", "lock", "--help");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("--[no-]cluster"), r.out());
        assertTrue(r.out().contains("OMPI_COMM_WORLD_RANK") && r.out().contains("SLURM_PROCID"), r.out());
    }

    @Test
    void shouldStayInOneJvmWhenTheLauncherRunsOneProcess() {
        LockBenchCommand one = new LockBenchCommand(ToolRun.NO_DEVICE,
                Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1"), b -> b);
        new CommandLine(one).parseArgs();
        assertFalse(one.clusterMode());
        LockBenchCommand three = new LockBenchCommand(ToolRun.NO_DEVICE,
                Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "3"), b -> b);
        new CommandLine(three).parseArgs();
        assertTrue(three.clusterMode());
        new CommandLine(three).parseArgs("--no-cluster");
        assertFalse(three.clusterMode());
        LockBenchCommand joinArgs = new LockBenchCommand(ToolRun.NO_DEVICE, Map.of(), b -> b);
        new CommandLine(joinArgs).parseArgs("--node-id=1", "--rendezvous=/tmp/x");
        assertTrue(joinArgs.clusterMode());
    }
}
