package io.remus.core.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ConfigSources#fromEnvironment} on the environments real launchers gave the processes of a
 * three-process run in the Soft-RoCE guest (captured by {@code softroce/run-launchers}; see
 * {@code launchers/README.md} beside the fixtures).
 */
class LauncherEnvironmentFixtureTest {
    private static final int SIZE = 3;

    @Test
    void shouldGiveEachSrunTaskItsRankAndEveryTaskTheGuestWithConsecutivePorts() throws IOException {
        for (int rank = 0; rank < SIZE; rank++) {
            Map<String, String> env = fixture("srun-N1-n3-rank" + rank + ".env");
            assertEquals(String.valueOf(rank), env.get("SLURM_PROCID"), "the fixture itself");
            ClusterConfig c = ConfigSources.fromEnvironment(env);
            assertEquals(rank, c.nodeId());
            assertEquals(SIZE, c.nodes().size());
            for (int i = 0; i < SIZE; i++) {
                assertEquals(new NodeAddress("remus-guest", NodeAddress.DEFAULT_BASE_PORT + i), c.nodeAddress(i),
                        "rank " + rank + " sees node " + i);
            }
            assertTrue(c.isMemoryNode() && c.isComputeNode());
        }
    }

    @Test
    void shouldGiveEachMpirunProcessItsRankAndTheLaunchSize() throws IOException {
        for (int rank = 0; rank < SIZE; rank++) {
            Map<String, String> env = fixture("mpirun-np3-rank" + rank + ".env");
            assertEquals(String.valueOf(rank), env.get("OMPI_COMM_WORLD_RANK"), "the fixture itself");
            ClusterConfig c = ConfigSources.fromEnvironment(env);
            assertEquals(rank, c.nodeId());
            assertEquals(SIZE, c.nodes().size());
            assertTrue(c.isMemoryNode() && c.isComputeNode());
        }
    }

    @Test
    void shouldLetRemusNodesGiveTheAddressesUnderMpirun() throws IOException {
        Map<String, String> env = fixture("mpirun-np3-rank2.env");
        env.put("REMUS_NODES", "198.18.0.1:7000,198.18.0.1:7001,198.18.0.1:7002");
        ClusterConfig c = ConfigSources.fromEnvironment(env);
        assertEquals(2, c.nodeId());
        assertEquals(new NodeAddress("198.18.0.1", 7002), c.nodeAddress(c.nodeId()));
    }

    private static Map<String, String> fixture(String name) throws IOException {
        try (InputStream in = LauncherEnvironmentFixtureTest.class.getResourceAsStream("launchers/" + name)) {
            assertNotNull(in, "fixture launchers/" + name);
            Map<String, String> env = new HashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    env.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            assertTrue(env.size() > 10, "fixture " + name + " has " + env.size() + " variables");
            return env;
        }
    }
}
