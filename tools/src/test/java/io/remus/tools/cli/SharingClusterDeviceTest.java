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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus experiment sharing} as three processes on the test device: three child JVMs run the command, each one
 * node of a cluster that they join through {@code --rendezvous DIR}, every way of sharing a counter in turn; node 0
 * prints one JSON report whose increments are every node's (the engine checked every counter against them).
 */
@Tag(DeviceTests.SLOW_TAG)
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class SharingClusterDeviceTest {
    /** Each child's limit: three JVMs start, join and run six ways in an emulated guest within the test's 600 s. */
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(9);

    @DeviceTest
    void shouldPrintOneReportOverEveryNodeWhenThreeProcessesShareCountersOnTheDevice(@TempDir Path dir)
            throws InterruptedException {
        String device = DeviceTests.deviceName();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                children.add(ChildJvm.start(Remus.class, "experiment", "sharing", "--fabric", "verbs", "-d", device,
                        "--json", "--counters", "12", "--threads", "1", "--p-local", "0.5", "-D", "1",
                        "--join-timeout", "120", "--rendezvous=" + dir.resolve("job"), "--node-id=" + i,
                        "--node.count=3", "--port.base=" + port, "--seg-size=16M", "--buffer.size=256K",
                        "--timeout.ms=20000"));
            }
            List<String> outputs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertTrue(r.succeeded(), "node " + i + " failed:\n" + r.output());
                outputs.add(r.output());
            }
            String json = outputs.getFirst();
            System.out.println(json);
            assertTrue(json.contains("one process per node: 3 nodes"), json);
            assertTrue(json.contains("\"fabric\":\"verbs\""), json);
            List<Long> increments = LauncherRanks.numbers(json, "increments");
            assertEquals(6, increments.size(), "one run per way: " + json);
            assertTrue(increments.stream().allMatch(n -> n > 0), json);
            assertEquals(increments, LauncherRanks.numbers(json, "count"), "every node's latencies merged: " + json);
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
