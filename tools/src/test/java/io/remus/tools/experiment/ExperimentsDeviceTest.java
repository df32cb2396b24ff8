package io.remus.tools.experiment;

import io.remus.tools.RemusRun;
import io.remus.bench.numa.NumaNode;
import io.remus.bench.numa.NumaTopology;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus experiment numa}, {@code loopback}, {@code sharing} and {@code kv} on the verbs fabric of
 * a real device: every placement measured, every page where it was bound (as move_pages reads it back),
 * the pinned thread on its node's CPUs, RDMA READs through the loopback QP, every way of sharing a
 * counter and of a key-value store run with its checks, and the plots drawn. On the Soft-RoCE guest
 * (two emulated NUMA nodes) this covers the cross-node placements.
 */
class ExperimentsDeviceTest {

    @DeviceTest
    void shouldMeasureEveryPlacementWithPagesWhereTheyWereBoundWhenNumaRunsOnVerbs(@TempDir Path dir)
            throws IOException {
        NumaTopology topology = NumaTopology.read();
        Path png = dir.resolve("numa.png");
        RemusRun run = RemusRun.of("experiment", "numa", "--fabric", "verbs", "-d", DeviceTests.deviceName(), "--size", "8", "-n",
                "20000", "--rdma-iters", "200", "--plot", png.toString());
        assertEquals(0, run.exit(), run.err());
        List<String[]> rows = run.out().lines().filter(l -> l.matches("^\\d+\\s+\\d+\\s+\\d+\\s+.*"))
                .map(l -> l.trim().split("\\s+")).toList();
        long cpuNodes = topology.nodes().stream().filter(n -> !n.cpus().isEmpty()).count();
        long memoryNodes = topology.nodes().stream().filter(NumaNode::hasMemory).count();
        assertEquals(cpuNodes * memoryNodes, rows.size(), run.out());
        for (String[] row : rows) {
            int cpuNode = Integer.parseInt(row[0]);
            int cpu = Integer.parseInt(row[1]);
            assertTrue(topology.node(cpuNode).cpus().contains(cpu), "pinned thread ran on cpu " + cpu + ": " + run.out());
            assertEquals("100.0%", row[3], run.out());
            assertNotEquals("-", row[6], run.out());
        }
        assertTrue(run.out().contains("verbs fabric"), run.out());
        assertNotNull(ImageIO.read(png.toFile()));
    }

    @DeviceTest
    void shouldCompareTheThreePathsWhenLoopbackRunsOnVerbs(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("loopback.png");
        RemusRun run = RemusRun.of("experiment", "loopback", "--fabric", "verbs", "-d", DeviceTests.deviceName(), "-n", "300",
                "--plot", png.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("on the verbs fabric"), run.out());
        List<String> rows = run.out().lines().filter(l -> l.matches("^(READ|WRITE|COMPARE_AND_SWAP) .*")).toList();
        assertEquals(9, rows.size(), run.out());
        assertEquals(3, rows.stream().filter(l -> l.contains("loopback QP")).count(), run.out());
        assertEquals(3, rows.stream().filter(l -> l.contains("remote node")).count(), run.out());
        assertNotNull(ImageIO.read(png.toFile()));
    }

    @DeviceTest
    void shouldRunEveryWayWithItsCountersCheckedWhenSharingRunsOnVerbs(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("sharing.png");
        RemusRun run = RemusRun.of("experiment", "sharing", "--fabric", "verbs", "-d", DeviceTests.deviceName(),
                "--counters", "4", "--threads", "1", "-D", "0.5", "--segment-mib", "16", "--plot", png.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("device " + DeviceTests.deviceName() + ", every node in this process"), run.out());
        for (String way : List.of("faa", "alock", "spin", "mcs", "delegated", "waitfree")) {
            List<String[]> rows = run.out().lines().filter(l -> l.matches("^1\\s+" + way + "\\s+.*"))
                    .map(l -> l.trim().split("\\s+")).toList();
            assertEquals(1, rows.size(), way + " in\n" + run.out());
            assertTrue(Double.parseDouble(rows.getFirst()[2]) > 0, way + " made increments: " + run.out());
        }
        assertTrue(run.out().contains("check: every counter of every way ended at exactly"), run.out());
        assertNotNull(ImageIO.read(png.toFile()));
    }

    @DeviceTest
    void shouldRunEveryWayWithItsReadsCheckedWhenKvRunsOnVerbs(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("kv.json");
        RemusRun run = RemusRun.of("experiment", "kv", "--fabric", "verbs", "-d", DeviceTests.deviceName(),
                "--keys", "16", "--threads", "1", "-D", "0.5", "--segment-mib", "16", "--value-size", "64",
                "--json", json.toString());
        assertEquals(0, run.exit(), run.err());
        String text = Files.readString(json);
        assertTrue(text.startsWith("{\"tool\":\"remus\",\"test\":\"kv\",\"fabric\":\"verbs\",\"cost_model\":null,"), text);
        for (String workload : List.of("A", "B")) {
            for (String way : List.of("one-sided", "delegated", "alock")) {
                assertTrue(text.contains("{\"workload\":\"" + workload + "\",\"way\":\"" + way + "\","), workload + "/" + way + ": " + text);
            }
        }
        assertTrue(text.contains("\"value_bytes\":64,"), text);
        assertTrue(run.out().contains("64-byte values (the delegated way's payloads)"), run.out());
        assertTrue(run.out().contains("check: every read returned a whole value written for its key"), run.out());
    }
}
