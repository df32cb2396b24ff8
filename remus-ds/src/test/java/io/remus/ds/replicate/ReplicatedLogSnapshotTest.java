package io.remus.ds.replicate;

import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshots of the replicated log's state machines (Raft's InstallSnapshot, Ongaro's thesis ch. 5, over one-sided
 * RDMA) on the simulated fabric under the virtual-time scheduler, five seeds per case: members further behind than
 * the ring brought back from a snapshot and the entries after it. The members' machine ({@link ReplicaHarness.Machine})
 * checks every image it restores whole, so a torn image restored fails the run. Entry {@code v} is appended at
 * index {@code v}; a member takes a snapshot every 4 entries it applies; the log has 8 slots.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ReplicatedLogSnapshotTest {
    private static final SimOptions OPTIONS = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withTransportTimeoutNanos(1_000_000);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int SLOTS = 8;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 5);
    }

    private static ReplicaHarness start(SimOptions options, int ballast, int snapshotBytes,
                                        Consumer<io.remus.core.config.ClusterConfig.Builder> tweak) {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        ReplicaHarness h = new ReplicaHarness(options, 3, group, SLOTS, 64, tweak);
        h.suspectAfter = 16;
        h.snapshotBytes = snapshotBytes;
        h.snapshotEvery = 4;
        h.ballast = ballast;
        h.startReplicas();
        h.awaitCreated();
        for (int k = 0; k < 3; k++) {
            h.awaitLeaderView(k, 0);
        }
        return h;
    }

    private static ReplicaHarness start() {
        return start(OPTIONS, 0, 4096, b -> { });
    }

    private static void append(LogLeader l, List<Long> committed, long from, long to) {
        for (long v = from; v < to; v++) {
            assertEquals(v, l.append(ReplicaHarness.entry(v), TIMEOUT));
            committed.add(v);
        }
    }

    /** Retries {@code reattach} while the leader's own member has not yet taken a snapshot that helps. */
    private static boolean reattach(LogLeader l, int node) {
        for (int tries = 0; tries < 200; tries++) {
            if (l.reattach(node, TIMEOUT)) {
                return true;
            }
            ThreadTime.parkNanos(null, 100_000);
        }
        return false;
    }

    /**
     * Follower 2 stops answering after 10 entries while the leader appends 40 more (five laps of the 8-slot ring),
     * answers again, and is caught up by one snapshot install and the entries after it; every member ends with
     * the same 60 values, and only member 2 restored an image.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldCatchUpAFollowerDownWhileTheLogLappedItsRingBySnapshotAndEntries(long seed) {
        catchUpAfterLaps(seed, OPTIONS, 0, 4096, b -> { }, false);
    }

    /**
     * As above with torn WRITEs (every word lands as two halves and the NIC yields between them): the follower's
     * applier looks at the image while its descriptor lands in halves, leaves it (counted) and restores only the
     * whole one.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldNeverRestoreATornSnapshotImage(long seed) {
        catchUpAfterLaps(seed, OPTIONS.withTearWords(true).withYieldWhileTearing(true), 0, 4096, b -> { }, true);
    }

    /**
     * An image of 16 KiB and more through a 2 KiB staging buffer: the leader WRITEs it in chunks of
     * {@code buffer / window} bytes, exactly {@code 2 + ceil(padded image / chunk)} WRITEs.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldInstallASnapshotLargerThanTheStagingBuffer(long seed) {
        catchUpAfterLaps(seed, OPTIONS, 16 << 10, 24 << 10, b -> b.bufferSizePerThread(2048), false);
    }

    private static void catchUpAfterLaps(long seed, SimOptions options, int ballast, int snapshotBytes,
                                         Consumer<io.remus.core.config.ClusterConfig.Builder> tweak, boolean torn) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start(options, ballast, snapshotBytes, tweak)) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> committed = new ArrayList<>();
                long[] cost = new long[4];
                h.runOn(0, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    append(l, committed, 0, 10);
                    fabric.stopAnswering(2);
                    append(l, committed, 10, 50);
                    l.flushCommit(TIMEOUT);
                    assertFalse(l.isAttached(2));
                    assertFalse(l.reattach(2, TIMEOUT), "a follower that does not answer is not attached");
                    assertEquals(0, l.snapshotInstalls());
                    fabric.resumeAnswering(2);
                    assertTrue(reattach(l, 2), "the follower behind the ring is attached again");
                    cost[0] = l.snapshotInstalls();
                    cost[1] = l.snapshotWrites();
                    cost[2] = l.window();
                    cost[3] = l.catchUpWrites();
                    append(l, committed, 50, 60);
                    l.flushCommit(TIMEOUT);
                    assertTrue(l.isAttached(2));
                    l.close();
                });
                h.stopReplicas(1_000_000);
                for (int k = 0; k < 3; k++) {
                    assertEquals(committed, h.applied.get(k), "node " + k + " ends with every committed value");
                }
                assertEquals(1, cost[0], "one snapshot installed");
                assertEquals(List.of(), h.restoredCovers.get(0), "the leader's member restored nothing");
                assertEquals(List.of(), h.restoredCovers.get(1), "the attached follower restored nothing");
                List<Long> restored = h.restoredCovers.get(2);
                assertEquals(1, restored.size(), "member 2 restored one image: " + restored);
                long covers = restored.get(0);
                assertTrue(covers > 50 - SLOTS && covers <= 50, "the image covers entries the ring follows: " + covers);
                assertEquals(1, h.replicas[2].snapshotsRestored());
                if (torn) {
                    assertTrue(h.replicas[2].snapshotsRejected() >= 1, "member 2 saw the image torn and left it");
                } else {
                    assertEquals(0, h.replicas[2].snapshotsRejected(), "an image is seen only once whole");
                }
                assertEquals(50 - covers, cost[3], "one WRITE per entry after the image");
                long padded = LogLayout.padded(8 + 8 * covers + ballast);
                long chunk = (h.cluster.thread(0).buffer().byteSize() / cost[2]) & ~7L;
                assertEquals(2 + (padded + chunk - 1) / chunk, cost[1],
                        "clearing word, " + padded + " bytes in chunks of " + chunk + ", descriptor");
            }
        });
    }

    /**
     * An install cut short: follower 2 stops answering while the chunks of a 16 KiB image land (after the clear of
     * its covers word), so the descriptor is never written; the part-written image is never restored, the
     * reattach returns false, and once the follower answers again a whole install brings it back, restored once.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldNeverRestoreAnImageWhoseInstallWasCutShort(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start(OPTIONS, 16 << 10, 24 << 10, b -> b.bufferSizePerThread(2048))) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> committed = new ArrayList<>();
                long[] seen = new long[3];
                h.runOn(0, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    append(l, committed, 0, 10);
                    fabric.stopAnswering(2);
                    append(l, committed, 10, 50);
                    l.flushCommit(TIMEOUT);
                    long deadline = ThreadTime.nanoTime() + 5 * ReplicaHarness.SECOND;
                    while (h.replicas[0].snapshotCovers() <= 50 - SLOTS && ThreadTime.nanoTime() - deadline < 0) {
                        ThreadTime.parkNanos(null, 10_000);
                    }
                    fabric.resumeAnswering(2);
                    java.lang.foreign.MemorySegment covers = h.cluster.raw(h.replicas[2].snapshotPtr(), 64);
                    Thread cutter = ThreadTime.newThread("cutter", () -> {
                        while (covers.get(java.lang.foreign.ValueLayout.JAVA_LONG, LogLayout.SNAP_COVERS) != 0) {
                            ThreadTime.parkNanos(null, 200);
                        }
                        ThreadTime.parkNanos(null, 3_000);
                        fabric.stopAnswering(2);
                    });
                    cutter.start();
                    assertFalse(l.reattach(2, TIMEOUT), "the install was cut short");
                    ThreadTime.join(cutter, 10 * ReplicaHarness.SECOND);
                    seen[0] = l.snapshotInstalls();
                    seen[1] = l.snapshotWrites();
                    ThreadTime.parkNanos(null, 1_000_000);
                    seen[2] = h.restoredCovers.get(2).size();
                    fabric.resumeAnswering(2);
                    assertTrue(reattach(l, 2), "a whole install brings the follower back");
                    assertEquals(1, l.snapshotInstalls());
                    append(l, committed, 50, 60);
                    l.flushCommit(TIMEOUT);
                    l.close();
                });
                h.stopReplicas(1_000_000);
                assertEquals(0, seen[0], "no install completed while the follower stopped answering");
                assertTrue(seen[1] >= 2, "the clear and some chunks were written: " + seen[1]);
                assertEquals(0, seen[2], "the part-written image was not restored");
                for (int k = 0; k < 3; k++) {
                    assertEquals(committed, h.applied.get(k), "node " + k + " ends with every committed value");
                }
                assertEquals(1, h.restoredCovers.get(2).size(), "member 2 restored the whole image once");
                assertEquals(0, h.replicas[2].snapshotsRejected(), "a cleared covers word is not even looked at");
            }
        });
    }

    /**
     * Follower 2 restarts ({@link LogReplica#restart}) while down: it restores its own image first; the leader
     * appends until the ring is past it, then installs its own image and the entries after it.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldCatchUpARestartedMemberBehindTheRing(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start()) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> committed = new ArrayList<>();
                long[] own = new long[2];
                h.runOn(0, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    append(l, committed, 0, 20);
                    l.flushCommit(TIMEOUT);
                    long deadline = ThreadTime.nanoTime() + 5 * ReplicaHarness.SECOND;
                    while (h.replicas[2].snapshotCovers() < 16 && ThreadTime.nanoTime() - deadline < 0) {
                        ThreadTime.parkNanos(null, 10_000);
                    }
                    fabric.stopAnswering(2);
                    h.restartReplica(2);
                    own[0] = h.replicas[2].snapshotCovers();
                    append(l, committed, 20, 50);
                    l.flushCommit(TIMEOUT);
                    fabric.resumeAnswering(2);
                    assertTrue(reattach(l, 2), "the restarted member is attached again");
                    own[1] = l.snapshotInstalls();
                    append(l, committed, 50, 60);
                    l.flushCommit(TIMEOUT);
                    l.close();
                });
                h.stopReplicas(1_000_000);
                for (int k = 0; k < 3; k++) {
                    assertEquals(committed, h.applied.get(k), "node " + k + " ends with every committed value");
                }
                List<Long> restored = h.restoredCovers.get(2);
                assertTrue(own[0] >= 16, "member 2 kept its own image over the restart: " + own[0]);
                assertEquals(2, restored.size(), "its own image, then the leader's: " + restored);
                assertEquals(own[0], restored.get(0));
                assertTrue(restored.get(1) > 50 - SLOTS, "the leader's image follows the ring: " + restored);
                assertEquals(1, own[1]);
            }
        });
    }

    /**
     * Member 1 is down while the leader laps the ring, answers again without being caught up, and then the leader
     * is killed: member 1, elected, is behind both rings, so its takeover READs member 2's image into its own
     * region (its member restores it) before it recovers the entries after it and goes on appending.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldTakeOverFromBehindTheRingByRestoringAMajorityMembersSnapshot(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start()) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> committed = new ArrayList<>();
                long[] seen = new long[3];
                h.runOn(0, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    append(l, committed, 0, 10);
                    fabric.stopAnswering(1);
                    append(l, committed, 10, 50);
                    l.flushCommit(TIMEOUT);
                    assertFalse(l.isAttached(1));
                    l.close();
                });
                long deadline = ThreadTime.nanoTime() + 5 * ReplicaHarness.SECOND;
                while (h.replicas[2].snapshotCovers() < 50 - SLOTS / 2 && ThreadTime.nanoTime() - deadline < 0) {
                    ThreadTime.parkNanos(null, 10_000);
                }
                fabric.resumeAnswering(1);
                fabric.stopAnswering(0);
                h.awaitLeaderView(1, 1);
                h.awaitLeaderView(2, 1);
                h.runOn(1, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    seen[0] = l.snapshotRestoredFrom();
                    seen[1] = l.appended();
                    seen[2] = l.snapshotReads();
                    append(l, committed, 50, 60);
                    l.flushCommit(TIMEOUT);
                    l.close();
                });
                h.stopReplicas(1_000_000);
                assertEquals(2, seen[0], "member 1 restored from member 2's image");
                assertEquals(50, seen[1], "the recovered log ends at the committed count");
                assertEquals(committed, h.applied.get(1), "the new leader's member holds every committed value");
                assertEquals(committed, h.applied.get(2), "so does member 2");
                assertEquals(committed.subList(0, h.applied.get(0).size()), h.applied.get(0), "the killed one a prefix");
                assertEquals(1, h.restoredCovers.get(1).size(), "member 1 restored one image: " + h.restoredCovers.get(1));
                assertTrue(seen[2] >= 4, "descriptor READs before and after the image: " + seen[2]);
            }
        });
    }
}
