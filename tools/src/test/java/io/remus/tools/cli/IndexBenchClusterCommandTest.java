package io.remus.tools.cli;

import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus bench index} as three processes of one cluster under a launcher: three commands in one JVM, each with
 * an Open MPI rank in its environment, joining one shared simulator fabric.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class IndexBenchClusterCommandTest {
    private static final LauncherRanks.Factory COMMANDS = IndexBenchCommand::new;

    @Test
    void shouldPrintOneReportOverEveryNodesOperationsWhenALauncherStartsThreeProcesses() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<LauncherRanks.Run> runs = LauncherRanks.onRanks(COMMANDS, fabric, 3, "--json", "--ycsb", "A",
                    "--shards", "2", "--keys", "64", "--num-ops", "40", "--join-timeout", "60");
            assertEquals(List.of(0, 0, 0), runs.stream().map(LauncherRanks.Run::exit).toList(),
                    runs.stream().map(LauncherRanks.Run::err).toList().toString());
            assertTrue(runs.get(1).out().isBlank() && runs.get(2).out().isBlank(), "the other nodes print nothing");
            String json = runs.get(0).out().strip();
            assertEquals(1, json.lines().count(), json);
            assertTrue(json.contains("\"test\":\"index\"") && json.contains("one process per node: 3 nodes"), json);
            assertEquals(List.of(3L), LauncherRanks.numbers(json, "clients"), json);
            assertEquals(List.of(120L), LauncherRanks.numbers(json, "ops"), "3 nodes x 40 operations: " + json);
            List<Long> counts = LauncherRanks.numbers(json, "count");
            assertEquals(120L, counts.getFirst(), "the merged histogram holds every operation: " + json);
            long reads = LauncherRanks.numbers(json, "reads").getFirst();
            long found = LauncherRanks.numbers(json, "found").getFirst();
            assertEquals(reads, found, "every key was loaded, so every get finds it: " + json);
            assertEquals(0L, LauncherRanks.numbers(json, "not_leader_answers").getFirst(),
                    "with fail-over on, each group's lowest member leads and is each client's first guess: " + json);
            assertTrue(json.contains("fail-over on") && !json.contains("fail-over: "),
                    "fail-over is on, and no leader changed: " + json);
            assertEquals(List.of(1.0), decimals(json, "appends_per_op"), "one append per operation: " + json);
            assertEquals(List.of(4.0), decimals(json, "write"), "4 WRITEs per operation: " + json);
            assertEquals(List.of(3.0), decimals(json, "network_round_trips_per_op"), json);
            assertFalse(json.contains("map_ops"), "one process per node runs no hash map: " + json);
        }
    }

    @Test
    void shouldPrintTheTableOnNodeZeroWithoutJson() throws Exception {
        try (SimFabric fabric = new SimFabric()) {
            List<LauncherRanks.Run> runs = LauncherRanks.onRanks(COMMANDS, fabric, 3, "--ycsb", "C", "--shards", "3",
                    "--keys", "16", "--num-ops", "10", "--join-timeout", "60");
            assertEquals(List.of(0, 0, 0), runs.stream().map(LauncherRanks.Run::exit).toList(),
                    runs.stream().map(LauncherRanks.Run::err).toList().toString());
            String out = runs.get(0).out();
            assertTrue(out.startsWith("remus bench index on sim"), out);
            assertTrue(out.contains("every figure below is timed by each process's clock"), out);
            assertTrue(out.contains("index op/s"), out);
            assertTrue(runs.get(1).out().isBlank() && runs.get(2).out().isBlank(), "the other nodes print nothing");
        }
    }

    @Test
    void shouldRefuseClientsSeveralGroupSizesAndMoreShardsThanPlanesWithOneProcessPerNode() {
        try (SimFabric fabric = new SimFabric()) {
            Map<String, String> rank = Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "3",
                    "REMUS_NODES", "a,b,c");
            LauncherRanks.Run clients = LauncherRanks.run(COMMANDS, fabric, rank, "--clients", "4");
            assertEquals(2, clients.exit(), clients.err());
            assertTrue(clients.err().startsWith("--clients: with one process per node"), clients.err());
            LauncherRanks.Run replicas = LauncherRanks.run(COMMANDS, fabric, rank, "--replicas", "3,5");
            assertEquals(2, replicas.exit(), replicas.err());
            assertTrue(replicas.err().startsWith("--replicas: one process per node runs one group size"), replicas.err());
            LauncherRanks.Run big = LauncherRanks.run(COMMANDS, fabric, rank, "--replicas", "5");
            assertEquals(2, big.exit(), big.err());
            assertTrue(big.err().startsWith("--replicas 5 needs at least as many nodes, but the cluster has 3"), big.err());
            LauncherRanks.Run planes = LauncherRanks.run(COMMANDS, fabric, rank, "--shards", "16");
            assertEquals(2, planes.exit(), planes.err());
            assertTrue(planes.err().startsWith("--shards 16: one process per node runs at most 15 shards, one "
                    + "replication plane each"), planes.err());
        }
    }

    private static List<Double> decimals(String json, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\":([0-9.]+)").matcher(json);
        List<Double> found = new ArrayList<>();
        while (m.find()) {
            found.add(Double.parseDouble(m.group(1)));
        }
        return found;
    }
}
