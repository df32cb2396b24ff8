package io.remus.tools.cli;

import io.remus.tools.Remus;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus experiment sharing} and {@code kv} as three processes on the test device: three child JVMs run the
 * command, each one node of a cluster that they join through {@code --rendezvous DIR}, every way in turn; node 0
 * prints (or writes) one JSON report over every node (the engine checked every counter, and every worker every read).
 */
@Tag(DeviceTests.SLOW_TAG)
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class ExperimentsClusterDeviceTest {
    /**
     * Each child's limit: in an emulated guest three JVMs start, join and run the six ways of sharing in about 530 s,
     * so the limit leaves room for a slower host under the test's own 900 s.
     */
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(14);

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

    @DeviceTest
    void shouldWriteOneReportOverEveryNodeWhenThreeProcessesRunTheKeyValueStoreOnTheDevice(@TempDir Path dir)
            throws InterruptedException, IOException {
        String device = DeviceTests.deviceName();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        Path json = dir.resolve("kv.json");
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                children.add(ChildJvm.start(Remus.class, "experiment", "kv", "--fabric", "verbs", "-d", device,
                        "--json", json.toString(), "--workload", "A", "--keys", "60", "--threads", "1",
                        "--value-size", "64", "--p-local", "0.5", "-D", "1", "--join-timeout", "120",
                        "--rendezvous=" + dir.resolve("job"), "--node-id=" + i, "--node.count=3", "--port.base=" + port,
                        "--seg-size=16M", "--buffer.size=256K", "--timeout.ms=20000"));
            }
            for (int i = 0; i < 3; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertTrue(r.succeeded(), "node " + i + " failed:\n" + r.output());
            }
            String report = Files.readString(json);
            System.out.println(report);
            assertTrue(report.contains("one process per node: 3 nodes"), report);
            List<Long> reads = LauncherRanks.numbers(report, "reads");
            List<Long> updates = LauncherRanks.numbers(report, "updates");
            assertEquals(3, reads.size(), "one run per way: " + report);
            assertTrue(reads.stream().allMatch(n -> n > 0) && updates.stream().allMatch(n -> n > 0), report);
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
