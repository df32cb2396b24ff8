package io.remus.ds.replicate;

import io.remus.core.error.RemoteTimeoutException;
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
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Members killed and restarted with new memory ({@link SimFabric#crash}, {@link LogReplica#rejoin}) on the simulated
 * fabric under the virtual-time scheduler: a restarted follower and a restarted old leader are caught up and apply
 * the same sequence; a member caught up after its rejoin counts in a later takeover; and a member whose log is still
 * recovering is never a source, so an entry that it and a dead leader alone held is not lost.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RejoinTest {
    private static final SimOptions OPTIONS = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withTransportTimeoutNanos(1_000_000);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int SUSPECT_AFTER = 16;
    private static final int SLOTS = 256;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 4);
    }

    private static ReplicaHarness start() {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        ReplicaHarness h = new ReplicaHarness(OPTIONS, group.size(), group, SLOTS, 64);
        h.suspectAfter = SUSPECT_AFTER;
        h.startReplicas();
        h.awaitCreated();
        for (int k = 0; k < group.size(); k++) {
            h.awaitLeaderView(k, 0);
        }
        return h;
    }

    private static void awaitFlag(AtomicBoolean flag, String what) {
        long deadline = ThreadTime.nanoTime() + 20 * ReplicaHarness.SECOND;
        while (!flag.get()) {
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new AssertionError("not reached: " + what);
            }
            ThreadTime.parkNanos(null, 5_000);
        }
    }

    private static void awaitRejoined(ReplicaHarness h, int k) {
        long deadline = ThreadTime.nanoTime() + 20 * ReplicaHarness.SECOND;
        while (h.created.get(k) == 0) {
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new AssertionError("member " + k + " did not rejoin", h.failure.get());
            }
            ThreadTime.parkNanos(null, 5_000);
        }
    }

    private static void awaitApplied(ReplicaHarness h, int k, int count) {
        long deadline = ThreadTime.nanoTime() + 20 * ReplicaHarness.SECOND;
        while (h.applied.get(k).size() < count) {
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new AssertionError("member " + k + " applied " + h.applied.get(k).size() + " of " + count, h.failure.get());
            }
            ThreadTime.parkNanos(null, 5_000);
        }
    }

    /**
     * Appends, and reattaches member {@code k} whenever it is detached, until it is attached and its log no longer
     * recovering; {@return the next value}
     */
    private static long reattachWhileAppending(ReplicaHarness h, LogLeader leader, int k, long v, List<Long> committed) {
        long deadline = ThreadTime.nanoTime() + 20 * ReplicaHarness.SECOND;
        int node = h.group.member(k);
        while (!leader.isAttached(node) || h.replicas[k].recovering()) {
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new AssertionError("node " + node + " was not caught up");
            }
            if (!leader.isAttached(node) && leader.reattach(node, TIMEOUT)) {
                continue;
            }
            leader.append(ReplicaHarness.entry(v), TIMEOUT);
            committed.add(v++);
            ThreadTime.parkNanos(null, 20_000);
        }
        return v;
    }

    /** The members applied prefixes of one sequence, no value twice, holding each of {@code mustHold} once; {@return it} */
    private static List<Long> checkOneSequence(ReplicaHarness h, List<Long> mustHold) {
        List<Long> longest = List.of();
        for (List<Long> seq : h.applied) {
            if (seq.size() > longest.size()) {
                longest = seq;
            }
        }
        for (int k = 0; k < h.group.size(); k++) {
            List<Long> seq = h.applied.get(k);
            assertEquals(longest.subList(0, seq.size()), seq, "node " + h.group.member(k) + " applied a prefix of " + longest);
        }
        assertEquals(longest.size(), new HashSet<>(longest).size(), "no value applied twice: " + longest);
        for (long v : mustHold) {
            assertEquals(1, Collections.frequency(longest, v), "committed value " + v + " is in " + longest + " once");
        }
        return longest;
    }

    /**
     * Node 2 is killed and restarted with new memory while node 0 leads and appends; it learns the leader's term from
     * the two others, grants it once, and the leader finds its new log by name, catches it up and clears its
     * recovering bit. Then the leader is killed: node 1 takes over with node 2's log as a source, and every member
     * applies one sequence holding every committed value once.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldCatchUpAFollowerRestartedWithNewMemoryAndCountItInALaterTakeover(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start()) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> committed = Collections.synchronizedList(new ArrayList<>());
                AtomicBoolean appending = new AtomicBoolean();
                AtomicBoolean rejoined = new AtomicBoolean();
                long[] counts = new long[3];
                AtomicReference<Throwable> failed = new AtomicReference<>();
                Thread leader = h.startOn(0, failed, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    counts[2] = l.term();
                    long v = 0;
                    for (; v < 20; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    appending.set(true);
                    while (!rejoined.get()) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v++);
                        ThreadTime.parkNanos(null, 20_000);
                    }
                    v = reattachWhileAppending(h, l, 2, v, committed);
                    for (long end = v + 10; v < end; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    l.flushCommit(TIMEOUT);
                    counts[0] = l.recoveriesCleared();
                    counts[1] = l.logsLookedUpAgain();
                    l.close();
                });
                awaitFlag(appending, "node 0 appending");
                h.killAndRejoin(2);
                awaitRejoined(h, 2);
                rejoined.set(true);
                ReplicaHarness.join(leader, failed);
                assertEquals(1, counts[0], "the leader cleared node 2's recovering bit once");
                assertTrue(counts[1] >= 1, "the leader looked node 2's log up again");
                assertFalse(h.replicas[2].recovering());
                assertEquals(counts[2], h.replicas[2].promised(), "node 2 learned and granted the leader's term");
                assertEquals(0, h.replicas[2].grantedTo());
                awaitApplied(h, 2, committed.size());
                assertEquals(committed, h.applied.get(2), "the restarted member applied the whole sequence from 0");

                fabric.stopAnswering(0);
                h.awaitLeaderView(1, 1);
                h.awaitLeaderView(2, 1);
                List<Long> later = new ArrayList<>();
                h.runOn(1, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    assertEquals(committed.size(), l.appended(), "every committed entry recovered");
                    for (long v = 1000; v < 1010; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        later.add(v);
                    }
                    l.flushCommit(TIMEOUT);
                    l.close();
                });
                awaitApplied(h, 2, committed.size() + later.size());
                h.stopReplicas(100_000);
                List<Long> all = new ArrayList<>(committed);
                all.addAll(later);
                List<Long> seq = checkOneSequence(h, all);
                assertEquals(all, seq);
                assertEquals(all, h.applied.get(1));
                assertEquals(all, h.applied.get(2));
            }
        });
    }

    /**
     * Node 0 leads, is killed and restarted with new memory; node 1 takes over meanwhile. The restarted node 0 passes
     * itself over while its log is recovering, grants node 1's term, and node 1 catches it up as a follower.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldRejoinTheKilledOldLeaderAsAFollower(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start()) {
                List<Long> committed = Collections.synchronizedList(new ArrayList<>());
                h.runOn(0, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    for (long v = 0; v < 15; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                });
                h.killAndRejoin(0);
                h.awaitLeaderView(1, 1);
                h.awaitLeaderView(2, 1);
                awaitRejoined(h, 0);
                long[] counts = new long[2];
                h.runOn(1, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    assertEquals(committed.size(), l.appended(), "every committed entry recovered");
                    long v = reattachWhileAppending(h, l, 0, 100, committed);
                    for (long end = v + 10; v < end; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    l.flushCommit(TIMEOUT);
                    counts[0] = l.recoveriesCleared();
                    counts[1] = l.term();
                    l.close();
                });
                assertEquals(1, counts[0], "node 1 cleared node 0's recovering bit (in its takeover or its reattach)");
                assertFalse(h.replicas[0].recovering());
                assertEquals(1, h.replicas[0].grantedTo(), "the restarted old leader follows node 1");
                assertEquals(counts[1], h.replicas[0].promised());
                awaitApplied(h, 0, committed.size());
                h.stopReplicas(100_000);
                List<Long> seq = checkOneSequence(h, committed);
                assertEquals(committed, seq);
                assertEquals(committed, h.applied.get(0), "the restarted old leader applied the whole sequence");
            }
        });
    }

    /**
     * Entries from 10 on commit on leader 0 and node 1 only (node 2 silent meanwhile, then back but not caught up). Node 1
     * is killed and restarted with new memory, then node 0 is killed: node 2 is elected and nodes 1 and 2 grant its
     * term, but node 1's log is recovering and node 2's alone is no majority, so the takeover fails with a timeout
     * instead of losing the entries. Once node 0 answers again, it takes over from its own log and node 2's, and every
     * member, node 1 caught up included, applies the entries once.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldNotTakeOverFromARecoveringLogWhenItAndADeadLeaderAloneHeldAnEntry(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start()) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> committed = Collections.synchronizedList(new ArrayList<>());
                AtomicBoolean heldByTwo = new AtomicBoolean();
                AtomicBoolean rejoined = new AtomicBoolean();
                AtomicReference<Throwable> failed = new AtomicReference<>();
                Thread old = h.startOn(0, failed, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    for (long v = 0; v < 10; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    fabric.stopAnswering(2);
                    for (long v = 10; v < 15 || l.isAttached(2); v++) {
                        assertTrue(v < 1000, "node 2's WRITEs failed");
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                        ThreadTime.parkNanos(null, 20_000);
                    }
                    l.close(); // collects the WRITEs to node 2 still in flight: they fail, node 2 being silent
                    fabric.resumeAnswering(2);
                    heldByTwo.set(true);
                    awaitFlag(rejoined, "node 1 rejoined");
                    fabric.stopAnswering(0);
                });
                awaitFlag(heldByTwo, "entries from 10 on held by nodes 0 and 1 only");
                h.killAndRejoin(1);
                awaitRejoined(h, 1);
                assertTrue(h.replicas[1].recovering());
                rejoined.set(true);
                ReplicaHarness.join(old, failed);
                h.awaitLeaderView(2, 2);
                h.awaitLeaderView(1, 2);
                AtomicReference<Throwable> refused = new AtomicReference<>();
                h.runOn(2, t -> {
                    try {
                        LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, Duration.ofMillis(50));
                        l.close();
                    } catch (RemoteTimeoutException e) {
                        refused.set(e);
                    }
                });
                assertInstanceOf(RemoteTimeoutException.class, refused.get(),
                        "node 2 must not take over from its own log and node 1's recovering one");
                assertTrue(refused.get().getMessage().contains("0 of them with a log no rejoin left recovering")
                        || refused.get().getMessage().contains("1 of them with a log no rejoin left recovering"),
                        refused.get().getMessage());
                assertTrue(h.replicas[1].recovering(), "no leader caught node 1 up");
                List<Long> held = new ArrayList<>(committed);
                for (long v = 10; v < held.size(); v++) {
                    assertFalse(h.applied.get(2).contains(v), "node 2 never held value " + v);
                }

                fabric.resumeAnswering(0);
                h.awaitLeaderView(1, 0);
                h.awaitLeaderView(2, 0);
                h.runOn(0, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    assertEquals(held.size(), l.appended(), "the entries from 10 on recovered from node 0's own log");
                    long v = reattachWhileAppending(h, l, 1, 100, committed);
                    if (!l.isAttached(2)) {
                        v = reattachWhileAppending(h, l, 2, v, committed);
                    }
                    l.append(ReplicaHarness.entry(v), TIMEOUT);
                    committed.add(v);
                    l.flushCommit(TIMEOUT);
                    l.close();
                });
                assertFalse(h.replicas[1].recovering());
                for (int k = 0; k < 3; k++) {
                    awaitApplied(h, k, committed.size());
                }
                h.stopReplicas(100_000);
                List<Long> seq = checkOneSequence(h, committed);
                assertEquals(committed, seq);
            }
        });
    }

    /**
     * A member restarted with new memory while the two others do not answer cannot learn the promised term from
     * {@code f + 1} of them: its rejoin fails with a timeout, and it makes no log.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldFailTheRejoinTypedWhenFewerThanFPlusOneOtherMembersAnswer(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start()) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                fabric.stopAnswering(0);
                h.rejoinTimeout = Duration.ofMillis(20);
                h.killAndRejoin(2);
                long deadline = ThreadTime.nanoTime() + 30 * ReplicaHarness.SECOND;
                while (h.failure.get() == null) {
                    assertTrue(ThreadTime.nanoTime() - deadline < 0, "the rejoin did not end");
                    ThreadTime.parkNanos(null, 100_000);
                }
                RemoteTimeoutException e = assertInstanceOf(RemoteTimeoutException.class, h.failure.get());
                assertTrue(e.getMessage().contains("learned the promised term of 1 other members"), e.getMessage());
                assertEquals(0, h.created.get(2), "no log made");
                fabric.resumeAnswering(0);
                h.stop.set(true);
                for (Thread th : h.threads) {
                    assertTrue(ThreadTime.join(th, 10 * ReplicaHarness.SECOND), th.getName() + " stopped");
                }
            }
        });
    }
}
