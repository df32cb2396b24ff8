package io.remus.tools.cli;

import io.remus.bench.structure.RemusMetrics;
import io.remus.tools.Remus;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus bench ds} as three processes on the test device: three child JVMs run the command, each
 * one node of a cluster that they join through {@code --rendezvous DIR}, on a hash map under YCSB B with
 * an operation count; node 0 writes Remus' metrics file over every node's operations.
 */
@Tag(DeviceTests.SLOW_TAG)
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class DsBenchClusterDeviceTest {
    /**
     * Each child's limit: in an emulated guest three JVMs start, join, prefill and run in 190-290 s, so the limit
     * leaves room for a slower host under the test's own 600 s.
     */
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(9);

    @DeviceTest
    void shouldWriteNodeZerosMetricsOverEveryNodeWhenThreeProcessesRunTheBenchmarkOnTheDevice(@TempDir Path dir)
            throws InterruptedException, IOException {
        String device = DeviceTests.deviceName();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        Path metrics = dir.resolve("metrics.txt");
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                children.add(ChildJvm.start(Remus.class, "bench", "ds", "-d", device, "--structure", "hash-map",
                        "--ycsb", "B", "--num-ops", "500", "--key-ub", "1023", "--threads", "1", "--metrics",
                        metrics.toString(), "--join-timeout", "120", "--rendezvous=" + dir.resolve("job"),
                        "--node-id=" + i, "--node.count=3", "--port.base=" + port, "--seg-size=16M",
                        "--timeout.ms=20000"));
            }
            List<String> outputs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertTrue(r.succeeded(), "node " + i + " failed:\n" + r.output());
                outputs.add(r.output());
            }
            System.out.println(outputs.getFirst());
            assertTrue(outputs.getFirst().contains("one process per node: 3 nodes"), outputs.getFirst());
            Map<String, Long> m = RemusMetrics.parse(new StringReader(Files.readString(metrics)));
            assertEquals(3 * 500, m.get("op_count"), "every node's operations");
            assertEquals(0, m.get("get_f"), "YCSB loads every key");
            assertTrue(m.get("read") > 0, m.toString());
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
