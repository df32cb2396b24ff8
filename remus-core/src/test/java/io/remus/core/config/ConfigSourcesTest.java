package io.remus.core.config;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigSourcesTest {
    @Test
    void shouldReadEveryKeyWhenGivenAsArguments() {
        ClusterConfig c = ConfigSources.fromArgs("--nodes=a,b,c,d", "--node.id=2", "--memory.nodes=0-1", "--compute.nodes=2-3",
                "--segment.size=2M", "--segment.count=4", "--qp.lanes=2", "--qp.lane.policy=by_address",
                "--threads.per.node=3", "--ops.in.flight=32", "--buffer.size=128K", "--wrs.per.batch=8",
                "--allocation.policy=local_first", "--timeout.ms=250");
        assertEquals(List.of("a", "b", "c", "d"), c.nodes());
        assertEquals(2, c.nodeId());
        assertFalse(c.isMemoryNode());
        assertTrue(c.isComputeNode());
        assertEquals(2L << 20, c.segmentSize());
        assertEquals(4, c.segmentCount());
        assertEquals(2, c.qpLanesPerPeer());
        assertEquals(LanePolicy.BY_ADDRESS, c.lanePolicy());
        assertEquals(6, c.totalComputeThreads());
        assertEquals(32, c.opsInFlightPerThread());
        assertEquals(128 << 10, c.bufferSizePerThread());
        assertEquals(8, c.wrsPerBatch());
        assertEquals(AllocationPolicy.LOCAL_FIRST, c.allocationPolicy());
        assertEquals(Duration.ofMillis(250), c.operationTimeout());
    }

    @Test
    void shouldReadPropertiesWhenGivenAFile(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("remus.properties");
        Files.writeString(f, "nodes = h0, h1\nnode.id = 1\nmemory.nodes = 0\ncompute.nodes = 0-1\nsegment.size = 64K\n");
        ClusterConfig c = ConfigSources.fromFile(f);
        assertEquals(List.of("h0", "h1"), c.nodes());
        assertEquals(1, c.nodeId());
        assertEquals(new NodeRange(0, 0), c.memoryNodes());
        assertEquals(64 << 10, c.segmentSize());
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromFile(dir.resolve("missing.properties")));
    }

    @Test
    void shouldTakeRankAndSizeWhenLaunchedBySlurmOpenMpiOrPmi() {
        ClusterConfig slurm = ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "3", "SLURM_NTASKS", "4", "REMUS_SEGMENT_COUNT", "2"));
        assertEquals(3, slurm.nodeId());
        assertEquals(4, slurm.nodes().size());
        assertEquals(new NodeRange(0, 3), slurm.memoryNodes());
        assertEquals(2, slurm.segmentCount());
        ClusterConfig mpi = ConfigSources.fromEnvironment(Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2",
                "REMUS_COMPUTE_NODES", "1-1"));
        assertEquals(1, mpi.nodeId());
        assertEquals(new NodeRange(1, 1), mpi.computeNodes());
        ClusterConfig pmi = ConfigSources.fromEnvironment(Map.of("PMI_RANK", "0", "PMI_SIZE", "5"));
        assertEquals(5, pmi.nodes().size());
        ClusterConfig none = ConfigSources.fromEnvironment(Map.of("HOME", "/root"));
        assertEquals(0, none.nodeId());
        assertEquals(1, none.nodes().size());
    }

    @Test
    void shouldRejectWhenKeysOrValuesAreBad() {
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--no.such.key=1"));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("segment.size=1M"));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--segment.size=lots"));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--segment.size=100"));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--node.id=5", "--nodes=a,b"));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--nodes=a,b", "--memory.nodes=0-2"));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--memory.nodes=2-1"));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--allocation.policy=best"));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--ops.in.flight=0"));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--timeout.ms=0"));
    }

    @Test
    void shouldAcceptRemusFlagNamesAsAliases() {
        ClusterConfig c = ConfigSources.fromArgs("--nodes=a,b,c", "--node-id=2", "--seg-size=64K", "--qp-lanes=3",
                "--alloc-pol=random", "--cn-threads=4");
        assertEquals(2, c.nodeId());
        assertEquals(64 << 10, c.segmentSize());
        assertEquals(3, c.qpLanesPerPeer());
        assertEquals(AllocationPolicy.RANDOM, c.allocationPolicy());
        assertEquals(4, c.threadsPerNode());
        assertEquals("segment.size", ConfigSources.canonicalKey("seg-size"));
        assertEquals("segment.size", ConfigSources.canonicalKey("segment.size"));
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--segsize=64K"));
        assertTrue(e.getMessage().contains("'segsize'"), e.getMessage());
        BadArgumentException value = assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--alloc-pol=best"));
        assertTrue(value.getMessage().contains("allocation.policy") && value.getMessage().contains("best"), value.getMessage());
    }

    @Test
    void shouldLetArgumentsOverridePropertiesAndPropertiesOverrideTheEnvironment() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("segment.size", "16K");
        p.setProperty("qp.lanes", "5");
        ClusterConfig c = ConfigSources.layered(java.util.Map.of("REMUS_SEGMENT_SIZE", "8K", "REMUS_QP_LANES", "2",
                "REMUS_WRS_PER_BATCH", "7", "PMI_RANK", "1", "PMI_SIZE", "2"), p, java.util.List.of("--seg-size=32K"));
        assertEquals(32 << 10, c.segmentSize());
        assertEquals(5, c.qpLanesPerPeer());
        assertEquals(7, c.wrsPerBatch());
        assertEquals(1, c.nodeId());
        assertEquals(2, c.nodes().size());
    }
}
