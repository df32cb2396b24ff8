package io.remus.core.config;

import io.remus.core.RemusCluster;
import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inputs that each parse but contradict one another, or a value out of range that only one path
 * used to check, are refused before anything is opened, with a message naming the values.
 */
class ContradictoryInputTest {
    private static void assertRefused(Runnable action, String... named) {
        BadArgumentException e = assertThrows(BadArgumentException.class, action::run);
        for (String n : named) {
            assertTrue(e.getMessage().contains(n), "message should name " + n + ": " + e.getMessage());
        }
    }

    @Test
    void shouldRefuseANodeListThatNamesOneHostAndPortTwice(@TempDir Path dir) throws IOException {
        assertRefused(() -> ConfigSources.fromArgs("--nodes=h1:7000,h2:7000,h1:7000"), "h1:7000", "node 2", "node 0");
        assertRefused(() -> ConfigSources.fromArgs("--nodes=Host:7000,host:7000"), "node 1", "node 0");
        assertRefused(() -> ConfigSources.fromArgs("--nodes=h:" + (NodeAddress.DEFAULT_BASE_PORT + 1) + ",h"),
                "h:" + (NodeAddress.DEFAULT_BASE_PORT + 1), "node 1");
        assertRefused(() -> ClusterConfig.builder().nodes(List.of("10.0.0.1:9", "10.0.0.1:9")).build(), "10.0.0.1:9");
        Path hostfile = Files.writeString(dir.resolve("hosts"), "a:5000\nb:5000\na:5000\n");
        assertRefused(() -> ConfigSources.fromArgs("--hostfile=" + hostfile), "a:5000", "node 2");
        assertEquals(3, ConfigSources.fromArgs("--nodes=h,h,h").nodes().size(), "default ports differ by node id");
        assertEquals(2, ConfigSources.fromArgs("--nodes=h:7000,h:7001").nodes().size());
    }

    @Test
    void shouldRefuseLauncherEnvironmentsThatDisagree() {
        assertRefused(() -> ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                "OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2")), "SLURM_PROCID=0", "OMPI_COMM_WORLD_RANK=1");
        assertRefused(() -> ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2",
                "OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "3")), "SLURM_NTASKS=2", "OMPI_COMM_WORLD_SIZE=3");
        assertRefused(() -> ConfigSources.fromEnvironment(Map.of("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4",
                "PMI_RANK", "3", "PMI_SIZE", "4")), "OMPI_COMM_WORLD_RANK=2", "PMI_RANK=3");
        assertRefused(() -> ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2",
                "REMUS_NODE_ID", "0")), "REMUS_NODE_ID=0", "SLURM_PROCID=1");
        assertRefused(() -> ConfigSources.layered(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "3", "PMI_RANK", "2",
                "PMI_SIZE", "3"), new Properties(), List.of()), "SLURM_PROCID=0", "PMI_RANK=2");
        assertRefused(() -> RemusCluster.builder().environment(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                "OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2")).resolveConfig(), "SLURM_PROCID=0");

        ClusterConfig agreeing = ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "3",
                "OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "3", "REMUS_NODE_ID", "1"));
        assertEquals(1, agreeing.nodeId());
        assertEquals(3, agreeing.nodes().size());
    }

    @Test
    void shouldRefuseJoinKeysOutOfRangeWithoutARendezvous() {
        for (String base : new String[] {"65536", "70000", "0", "-1", "x", "4294985811"}) {
            assertRefused(() -> RemusCluster.builder().args("--fabric=sim", "--port.base=" + base).resolveConfig(),
                    "port.base", base);
        }
        assertRefused(() -> RemusCluster.builder().args("--fabric=sim", "--node.count=3", "--port.base=65534")
                .resolveConfig(), "port.base", "65534", "65536");
        assertEquals(3, RemusCluster.builder().args("--fabric=sim", "--node.count=3", "--port.base=65533")
                .resolveConfig().nodes().size());
        Map<String, String> env = new HashMap<>(Map.of("REMUS_PORT_BASE", "99999"));
        assertRefused(() -> RemusCluster.builder().environment(env).args("--fabric=sim").resolveConfig(), "port.base", "99999");
        assertRefused(() -> RemusCluster.builder().args("--fabric=sim", "--address=h:65536").resolveConfig(), "address", "65536");
        assertRefused(() -> RemusCluster.builder().args("--bootstrap=ib").resolveConfig(), "bootstrap", "ib");
        assertRefused(() -> RemusCluster.builder().args("--fabric=rdma").resolveConfig(), "fabric", "rdma");
        assertRefused(() -> RemusCluster.builder().args("--join.timeout.ms=-5").resolveConfig(), "join.timeout.ms", "-5");
        assertRefused(() -> RemusCluster.builder().args("--shutdown.timeout.ms=soon").resolveConfig(),
                "shutdown.timeout.ms", "soon");
        assertRefused(() -> RemusCluster.builder().args("--rendezvous=tcp://h:70000").resolveConfig(), "rendezvous", "70000");
    }

    @Test
    void shouldRefuseAKeyGivenTwiceOrANodeCountBesideANodeList() {
        assertRefused(() -> ConfigSources.fromArgs("--node-id=1", "--node.id=2", "--nodes=a,b,c"), "node.id", "'1'", "'2'");
        assertRefused(() -> ConfigSources.fromArgs("--seg-size=1M", "--segment.size=2M"), "segment.size", "1M", "2M");
        assertRefused(() -> ConfigSources.fromArgs("--qp.lanes=2", "--qp.lanes=2"), "qp.lanes");
        assertRefused(() -> ConfigSources.fromArgs("--node.count=3", "--nodes=a,b"), "node.count", "nodes");
        Properties p = new Properties();
        p.setProperty("node.count", "2");
        p.setProperty("hostfile", "/nonexistent");
        assertRefused(() -> ConfigSources.fromProperties(p), "node.count", "hostfile");
        assertRefused(() -> ConfigSources.fromEnvironment(Map.of("REMUS_NODE_COUNT", "2", "REMUS_NODES", "a,b")),
                "node.count", "nodes");
        assertRefused(() -> RemusCluster.builder().args("--fabric=sim", "--fabric", "verbs").resolveConfig(),
                "fabric", "'sim'", "'verbs'");
        assertRefused(() -> RemusCluster.builder().args("--fabric=sim", "--node-id", "0", "--node.id=1").resolveConfig(),
                "node.id");
        ClusterConfig layered = ConfigSources.layered(Map.of("REMUS_NODES", "a,b,c"), new Properties(),
                List.of("--node.count=2"));
        assertEquals(2, layered.nodes().size(), "a higher layer's node count replaces a lower layer's list");
    }
}
