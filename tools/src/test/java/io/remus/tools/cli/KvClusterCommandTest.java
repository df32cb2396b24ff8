package io.remus.tools.cli;

import io.remus.core.sim.SimFabric;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus experiment kv} as three processes of one cluster under a launcher: three commands in one JVM, each with
 * an Open MPI rank in its environment, joining one shared simulator fabric.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class KvClusterCommandTest {
    private static final LauncherRanks.Factory COMMANDS = KvCommand::new;

    @Test
    void shouldReportEveryNodesOperationsOnNodeZeroWhenALauncherStartsThreeProcesses(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("kv.json");
        try (SimFabric fabric = new SimFabric()) {
            List<LauncherRanks.Run> runs = LauncherRanks.onRanks(COMMANDS, fabric, 3, "--json", json.toString(),
                    "--workload", "A", "--keys", "30", "-D", "0.2", "--threads", "2", "--value-size", "32",
                    "--join-timeout", "30", "--seg-size=16M", "--buffer.size=256K");
            for (LauncherRanks.Run r : runs) {
                assertEquals(0, r.exit(), r.err());
            }
            assertFalse(runs.get(0).out().isBlank(), "node 0 prints the report");
            assertTrue(runs.get(1).out().isBlank() && runs.get(2).out().isBlank(), "the other nodes print nothing");
            String report = Files.readString(json).strip();
            assertEquals(1, report.lines().count(), report);
            assertEquals(List.of(3L), LauncherRanks.numbers(report, "nodes"), report);
            assertTrue(report.contains("one process per node: 3 nodes"), report);
            List<Long> reads = LauncherRanks.numbers(report, "reads");
            List<Long> updates = LauncherRanks.numbers(report, "updates");
            assertEquals(3, reads.size(), "one run per way: " + report);
            assertTrue(reads.stream().allMatch(n -> n > 0) && updates.stream().allMatch(n -> n > 0), report);
            List<Long> counts = LauncherRanks.numbers(report, "count");
            assertEquals(6, counts.size(), report);
            for (int i = 0; i < 3; i++) {
                assertEquals(reads.get(i), counts.get(2 * i), "every node's read latencies merged: " + report);
                assertEquals(updates.get(i), counts.get(2 * i + 1), "every node's update latencies merged: " + report);
            }
        }
    }

    @Test
    void shouldDescribeTheRuleOfTheClusterModeInTheHelp() {
        RemusRun r = RemusRun.of("experiment", "kv", "--help");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("--[no-]cluster"), r.out());
    }
}
