package io.remus.tools.cli;

import io.remus.core.sim.SimFabric;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus experiment sharing} as three processes of one cluster under a launcher: three commands in one JVM,
 * each with an Open MPI rank in its environment, joining one shared simulator fabric.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SharingClusterCommandTest {
    private static final LauncherRanks.Factory COMMANDS = SharingCommand::new;

    @Test
    void shouldPrintOneReportOverEveryNodeOnNodeZeroWhenALauncherStartsThreeProcesses() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<LauncherRanks.Run> runs = LauncherRanks.onRanks(COMMANDS, fabric, 3, "--json", "--ways", "faa,delegated,alock",
                    "--counters", "9", "-D", "0.2", "--threads", "2", "--p-local", "0.5", "--join-timeout", "30",
                    "--seg-size=16M", "--buffer.size=256K");
            for (LauncherRanks.Run r : runs) {
                assertEquals(0, r.exit(), r.err());
            }
            assertFalse(runs.get(0).out().isBlank(), "node 0 prints the report");
            assertTrue(runs.get(1).out().isBlank() && runs.get(2).out().isBlank(), "the other nodes print nothing");
            String json = runs.get(0).out().strip();
            assertEquals(1, json.lines().count(), json);
            assertEquals(List.of(3L), LauncherRanks.numbers(json, "nodes"), json);
            assertTrue(json.contains("one process per node: 3 nodes"), json);
            List<Long> increments = LauncherRanks.numbers(json, "increments");
            List<Long> counts = LauncherRanks.numbers(json, "count");
            assertEquals(3, increments.size(), json);
            assertTrue(increments.stream().allMatch(i -> i > 0), json);
            assertEquals(increments, counts, "each way's merged histogram holds every node's increments: " + json);
            assertTrue(json.contains("\"way\":\"delegated\""), json);
        }
    }

    @Test
    void shouldDescribeTheRuleOfTheClusterModeInTheHelp() {
        RemusRun r = RemusRun.of("experiment", "sharing", "--help");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("--[no-]cluster"), r.out());
        assertTrue(r.out().contains("OMPI_COMM_WORLD_RANK"), r.out());
    }
}
