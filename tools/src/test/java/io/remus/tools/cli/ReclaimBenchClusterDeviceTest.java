package io.remus.tools.cli;

import io.remus.tools.Remus;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus bench reclaim} as three processes on the test device: three child JVMs run the
 * command, each one node of a cluster that they join through {@code --rendezvous DIR}; node 0
 * prints one report over every node's counts, RDMA operations and unreclaimed memory
 * ({@link ReclaimBenchClusterCommandTest#assertAggregated}). Each run churns one second; the three
 * JVMs' start-up and join take the rest, which in an emulated guest on a slow host has reached five
 * minutes, so each child gets nine.
 */
@Tag(DeviceTests.SLOW_TAG)
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ReclaimBenchClusterDeviceTest {
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(9);

    @DeviceTest
    void shouldPrintNodeZerosAggregatedReportWhenThreeProcessesRunTheBenchmarkOnTheDevice(@TempDir Path dir)
            throws InterruptedException {
        String device = DeviceTests.deviceName();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                children.add(ChildJvm.start(Remus.class, "bench", "reclaim", "--json", "-d", device,
                        "--reclaimer", "epoch,barrier", "-D", "1", "--warmup", "0", "--threads", "1",
                        "--join-timeout", "120", "--rendezvous=" + dir.resolve("job"), "--node-id=" + i,
                        "--node.count=3", "--port.base=" + port, "--seg-size=16M", "--timeout.ms=20000"));
            }
            List<String> outputs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertTrue(r.succeeded(), "node " + i + " failed (exit " + r.exitCode() + (r.timedOut() ? ", stopped at its "
                        + CHILD_TIMEOUT + " limit" : "") + "):\n" + r.output());
                outputs.add(r.output());
            }
            String report = outputs.getFirst().lines().filter(l -> l.startsWith("{")).findFirst().orElse("");
            assertFalse(report.isEmpty(), "node 0 printed no JSON report:\n" + outputs.getFirst());
            System.out.println(report);
            ReclaimBenchClusterCommandTest.assertAggregated(report, 3, "epoch", "barrier");
            for (int i = 1; i < 3; i++) {
                assertTrue(outputs.get(i).lines().noneMatch(l -> l.startsWith("{")),
                        "node " + i + " prints no report:\n" + outputs.get(i));
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
