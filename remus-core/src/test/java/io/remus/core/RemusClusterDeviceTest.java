package io.remus.core;

import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
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
 * Child JVMs joining one cluster on the test device with {@link RemusCluster#join} and
 * {@code --rendezvous DIR}: each finds its peers' rdma_cm addresses (its device's IPv4 address,
 * port {@code port.base + rank}) through the directory alone.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class RemusClusterDeviceTest {
    /**
     * How long a child may take: its JVM's start and device open (minutes in a loaded emulated guest), then a join
     * that gives up within about twice its timeout at worst (a connection attempt to a peer that published its
     * address runs to its own end).
     */
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(7);
    /**
     * The join timeout of the tests where a rank is missing: every live rank must publish its address within it of
     * the first, or the error names a live rank too. Each join's timeout starts once its own device is open, but two
     * JVMs starting together in an emulated guest beside another one still drift apart by tens of seconds; the joins
     * wait it out in full, since the missing rank never comes.
     */
    private static final int LIVE_RANKS_JOIN_MILLIS = 90_000;

    private static ChildJvm start(String device, Path dir, int rank, int size, int basePort, int joinMillis) {
        return ChildJvm.start(RemusClusterJoinMain.class, "--device=" + device, "--rendezvous", dir.toString(),
                "--node-id=" + rank, "--node.count=" + size, "--port.base=" + basePort, "--seg-size=64K",
                "--segment.count=2", "--buffer.size=8K", "--timeout.ms=20000", "--join.timeout.ms=" + joinMillis);
    }

    private static int basePort() {
        return 20000 + ThreadLocalRandom.current().nextInt(20000);
    }

    @DeviceTest
    void shouldWriteReadAndShutDownWhenThreeProcessesJoinThroughARendezvous(@TempDir Path dir) throws InterruptedException {
        String device = DeviceTests.deviceName();
        int port = basePort();
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                children.add(start(device, dir.resolve("job"), i, 3, port, 90_000));
            }
            for (int i = 0; i < 3; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertTrue(r.succeeded(), "node " + i + " failed:\n" + r.output());
                long expected = 1000L + (i + 2) % 3;
                assertTrue(r.output().contains("RESULT node " + i + " of 3 read " + expected), r.output());
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    @DeviceTest
    void shouldNameTheMissingRankWhenAPeerNeverStarts(@TempDir Path dir) throws InterruptedException {
        String device = DeviceTests.deviceName();
        int port = basePort();
        List<ChildJvm> children = new ArrayList<>();
        try {
            // a join timeout long enough for both live ranks to start in an emulated guest, so that only the absent one is missing
            for (int i = 0; i < 2; i++) {
                children.add(start(device, dir.resolve("job"), i, 3, port, LIVE_RANKS_JOIN_MILLIS));
            }
            for (int i = 0; i < 2; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertEquals(1, r.exitCode(), r.output());
                assertTrue(r.output().contains("ERROR RemoteTimeoutException") && r.output().contains("rank(s) [2] of 3"),
                        r.output());
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    @DeviceTest
    void shouldNameThePeerThatPublishedItsAddressAndDiedBeforeItsMemory(@TempDir Path dir) throws Exception {
        String device = DeviceTests.deviceName();
        int port = basePort();
        Path job = java.nio.file.Files.createDirectories(dir.resolve("job"));
        String deadPeer = io.remus.verbs.testing.DeviceAddress.ipv4(device) + ":" + (port + 2);
        java.nio.file.Files.writeString(job.resolve("rank-2"), deadPeer + "\n");
        List<ChildJvm> children = new ArrayList<>();
        try {
            // a join timeout long enough for the live rank to start its node in an emulated guest, so that only the dead one is missing
            for (int i = 0; i < 2; i++) {
                children.add(start(device, job, i, 3, port, LIVE_RANKS_JOIN_MILLIS));
            }
            for (int i = 0; i < 2; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertEquals(1, r.exitCode(), r.output());
                assertTrue(r.output().contains("ERROR RemoteTimeoutException") && r.output().contains("node(s) [2] of 3 ("
                        + deadPeer + ")"), r.output());
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
