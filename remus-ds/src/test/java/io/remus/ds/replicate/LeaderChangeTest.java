package io.remus.ds.replicate;

import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.Opcode;
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
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failure detection, election, leader takeover with recovery, and catch-up of the replicated log, on the
 * simulated fabric under the virtual-time scheduler (one seed, one interleaving). A node is "killed" with
 * {@link SimFabric#stopAnswering}: requests to it fail after the transport timeout, while its own threads go
 * on (so a killed leader goes on appending, as a stale leader would).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LeaderChangeTest {
    private static final SimOptions OPTIONS = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withTransportTimeoutNanos(1_000_000);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int SUSPECT_AFTER = 16;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 5);
    }

    private static ReplicaHarness start(int slots) {
        return start(OPTIONS, ReplicaGroup.of(0, 1, 2), slots);
    }

    private static ReplicaHarness start(ReplicaGroup group, int slots) {
        return start(OPTIONS, group, slots);
    }

    private static ReplicaHarness start(SimOptions options, ReplicaGroup group, int slots) {
        ReplicaHarness h = new ReplicaHarness(options, group.size(), group, slots, 64);
        h.suspectAfter = SUSPECT_AFTER;
        h.startReplicas();
        h.awaitCreated();
        for (int k = 0; k < group.size(); k++) {
            h.awaitLeaderView(k, 0);
        }
        return h;
    }

    /**
     * The members' applied sequences are prefixes of one sequence, with no value twice, which holds every value
     * in {@code mustHold} exactly once and none of {@code never}; returns the longest.
     */
    private static List<Long> checkOneSequence(ReplicaHarness h, List<Long> mustHold, Set<Long> never) {
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
        for (long v : never) {
            assertFalse(longest.contains(v), "value " + v + " was refused and never applied: " + longest);
        }
        return longest;
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldElectTheLowestLiveMemberAndGrantItsHigherTermOnlyWhenItAsks(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start(16)) {
                long[] terms = new long[2];
                h.runOn(0, t -> {
                    long writes = t.postedOperations(Opcode.WRITE);
                    long reads = t.postedOperations(Opcode.READ);
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    terms[0] = l.term();
                    assertEquals(0, l.appended(), "empty logs recover nothing");
                    assertEquals(2, t.postedOperations(Opcode.WRITE) - writes, "no rewrite, one commit-flush WRITE per follower");
                    long logReads = t.postedOperations(Opcode.READ) - reads;
                    assertTrue(logReads >= 8, "2 shape, 2 term, at least 2 promise and 2 log READs, besides the lookups: " + logReads);
                    assertEquals(0, l.rewriteWrites());
                    l.close();
                });
                assertEquals(LogLayout.nextTerm(0, 0, 3), terms[0]);
                for (int k = 0; k < 3; k++) {
                    assertEquals(terms[0], h.replicas[k].promised(), "node " + k + " promised node 0's term");
                }
                ((SimFabric) h.cluster.fabric()).stopAnswering(0);
                h.awaitLeaderView(1, 1);
                h.awaitLeaderView(2, 1);
                assertEquals(0, h.leaderView.get(0), "node 0 goes on taking itself as leader");
                ThreadTime.parkNanos(null, 200_000);
                assertEquals(terms[0], h.replicas[2].promised(), "no grant switch before node 1 asks");
                h.runOn(1, t -> {
                    try (LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT)) {
                        terms[1] = l.term();
                    }
                });
                assertEquals(LogLayout.nextTerm(terms[0], 1, 3), terms[1]);
                assertTrue(terms[1] > terms[0]);
                h.stopReplicas(100_000);
                for (int k = 1; k <= 2; k++) {
                    assertEquals(terms[1], h.replicas[k].promised());
                    assertEquals(1, h.replicas[k].grantedTo());
                    assertTrue(h.agents[k].isSuspected(0));
                    assertEquals(2, h.agents[k].grantSwitches(), "one switch per term asked");
                    assertTrue(h.agents[k].failedReads() >= 1, "READs of the killed node failed");
                    assertTrue(h.agents[k].reads() <= 2 * h.agents[k].polls(), "at most one READ per other member per poll");
                }
                assertEquals(terms[0], h.replicas[0].promised(), "the killed node never learned the new term");
            }
        });
    }

    /**
     * Node 0 leads, appends, and is killed; with {@code midStream} it goes on appending while nodes 1 and 2 elect
     * node 1, which takes over, recovers and appends; otherwise node 0 waits and then tries one late append, which
     * is refused. Every value node 0 saw committed survives exactly once.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldElectTheNextLeaderWhichRecoversEveryCommittedEntryWhenTheLeaderIsKilled(long seed) {
        runKill(seed, false);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldKeepEveryCommittedEntryWhenTheLeaderIsKilledWhileItKeepsAppending(long seed) {
        runKill(seed, true);
    }

    /**
     * As above, with torn WRITEs (every word lands as two halves and the NIC yields between them): members take
     * and apply only whole slots, also while the new leader rewrites slots they had taken.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldKeepEveryCommittedEntryWhenWritesTearDuringALeaderChange(long seed) {
        runKill(seed, true, OPTIONS.withTearWords(true).withYieldWhileTearing(true));
    }

    private static void runKill(long seed, boolean midStream) {
        runKill(seed, midStream, OPTIONS);
    }

    private static void runKill(long seed, boolean midStream, SimOptions options) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start(options, ReplicaGroup.of(0, 1, 2), 32)) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> oldCommitted = Collections.synchronizedList(new ArrayList<>());
                List<Long> newCommitted = Collections.synchronizedList(new ArrayList<>());
                AtomicBoolean killed = new AtomicBoolean();
                AtomicBoolean tookOver = new AtomicBoolean();
                AtomicLong fenced = new AtomicLong();
                AtomicLong recovered = new AtomicLong();
                AtomicReference<Throwable> oldFailed = new AtomicReference<>();
                Thread old = h.startOn(0, oldFailed, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    int killAt = 10 + (int) (seed * 7 % 13);
                    for (long v = 0; v < 100_000; v++) {
                        if (v == killAt) {
                            fabric.stopAnswering(0);
                            killed.set(true);
                            if (!midStream) {
                                while (!tookOver.get()) {
                                    ThreadTime.parkNanos(null, 10_000);
                                }
                                long writes = t.postedOperations(Opcode.WRITE);
                                assertThrows(LeaderFencedException.class, () -> l.append(ReplicaHarness.entry(999), TIMEOUT));
                                assertTrue(t.postedOperations(Opcode.WRITE) > writes, "the late append WRITEd");
                                break;
                            }
                        }
                        try {
                            l.append(ReplicaHarness.entry(v), Duration.ofMillis(20));
                            oldCommitted.add(v);
                            ThreadTime.parkNanos(null, 2_000);
                        } catch (LeaderFencedException e) {
                            break;
                        } catch (RemoteTimeoutException e) {
                            ThreadTime.parkNanos(null, 10_000);
                        }
                    }
                    assertTrue(l.isDeposed(), "the killed leader was fenced");
                    l.close();
                    fenced.set(l.fencedWrites());
                });
                while (!killed.get()) {
                    ThreadTime.parkNanos(null, 10_000);
                }
                h.awaitLeaderView(1, 1);
                h.runOn(1, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    tookOver.set(true);
                    recovered.set(l.appended());
                    assertFalse(l.isAttached(0), "the killed node is not attached");
                    for (long v = 1000; v < 1040; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        newCommitted.add(v);
                    }
                    l.flushCommit(TIMEOUT);
                    l.close();
                });
                ReplicaHarness.join(old, oldFailed);
                h.stopReplicas(1_000_000);
                assertTrue(fenced.get() >= 1, "the stale leader's refused WRITEs were counted: " + fenced.get());
                assertTrue(recovered.get() >= oldCommitted.size(), "the new leader recovered " + recovered.get()
                        + " entries, at least the " + oldCommitted.size() + " node 0 saw committed");
                List<Long> all = new ArrayList<>(oldCommitted);
                all.addAll(newCommitted);
                List<Long> seq = checkOneSequence(h, all, midStream ? Set.of() : Set.of(999L));
                assertEquals(oldCommitted, seq.subList(0, oldCommitted.size()), "node 0's committed entries first, in order");
                assertEquals(newCommitted, seq.subList((int) recovered.get(), seq.size()), "then node 1's");
                assertEquals(recovered.get() + newCommitted.size(), h.applied.get(1).size(), "node 1 applied everything");
                assertEquals(h.applied.get(1), h.applied.get(2), "node 2 too");
            }
        });
    }

    /**
     * Node 0's WRITEs to node 1 fail for a few entries, which commit on nodes 0 and 2 only; node 0 is killed.
     * Node 1, missing them, takes over and recovers them from node 2's log.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldRecoverEntriesTheNewLeaderLacksFromTheOtherMembersLog(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start(32)) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> committed = new ArrayList<>();
                long[] lastOld = new long[1];
                h.runOn(0, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    for (long v = 0; v < 10; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    fabric.failNextOperations(1, 40);
                    long v = 10;
                    for (; v < 60 && l.isAttached(1); v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    assertFalse(l.isAttached(1), "node 1 missed a WRITE and was detached");
                    for (long end = v + 3; v < end; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    lastOld[0] = v;
                    fabric.stopAnswering(0);
                });
                h.awaitLeaderView(1, 1);
                h.awaitLeaderView(2, 1);
                long[] got = new long[3];
                h.runOn(1, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    got[0] = l.appended();
                    got[1] = l.recoveredEntries();
                    got[2] = l.rewriteWrites();
                    for (long v = 1000; v < 1010; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    l.flushCommit(TIMEOUT);
                    l.close();
                });
                h.stopReplicas(1_000_000);
                assertEquals(lastOld[0], got[0], "the recovered log ends after node 0's last committed entry");
                assertTrue(got[1] >= 3, "node 1 rewrote at least the entries it lacked: " + got[1]);
                assertTrue(got[2] >= 1 && got[2] <= got[1], "one WRITE per recovered entry node 2 had not applied: " + got[2]);
                checkOneSequence(h, committed, Set.of());
                assertEquals(committed, h.applied.get(1));
                assertEquals(committed, h.applied.get(2));
            }
        });
    }

    /**
     * Five members: node 0 leads and is killed, node 1 takes over and is killed, node 2 takes over with the
     * last three; each leader catches up the followers it detached or that granted after its takeover
     * ({@link LogLeader#reattach}); terms grow, and every entry any of them committed is applied once, in order,
     * by the living.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldChangeLeaderTwiceInAGroupOfFiveWithTwoMembersKilled(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start(ReplicaGroup.of(0, 1, 2, 3, 4), 64)) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> committed = new ArrayList<>();
                long[] terms = new long[3];
                for (int lead = 0; lead < 3; lead++) {
                    int node = lead;
                    for (int k = lead; k < 5; k++) {
                        h.awaitLeaderView(k, node);
                    }
                    h.runOn(node, t -> {
                        LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                        terms[node] = l.term();
                        assertEquals(committed.size(), l.appended(), "node " + node + " recovered every committed entry");
                        for (long v = 100L * node; v < 100L * node + 12 + seed; v++) {
                            l.append(ReplicaHarness.entry(v), TIMEOUT);
                            committed.add(v);
                        }
                        for (int k = 0; k < 5; k++) {
                            if (k != node && !l.isAttached(k) && k > node) {
                                assertTrue(l.reattach(k, TIMEOUT), "node " + k + " caught up from node " + node);
                            }
                        }
                        if (node < 2) {
                            fabric.stopAnswering(node);
                        } else {
                            l.flushCommit(TIMEOUT);
                            l.close();
                        }
                    });
                }
                h.stopReplicas(1_000_000);
                assertTrue(terms[0] < terms[1] && terms[1] < terms[2], "terms grow: " + java.util.Arrays.toString(terms));
                checkOneSequence(h, committed, Set.of());
                for (int k = 2; k < 5; k++) {
                    assertEquals(committed, h.applied.get(k), "node " + k + " applied every committed entry");
                }
            }
        });
    }

    /**
     * A follower stops answering, restarts with an empty log and state machine (its promise kept), answers again
     * and is caught up from entry 0 by the leader, which still holds every entry in its ring.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldCatchUpAFollowerRestartedWithAnEmptyLog(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start(64)) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> committed = new ArrayList<>();
                long[] writes = new long[1];
                long[] term = new long[1];
                h.runOn(0, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    term[0] = l.term();
                    for (long v = 0; v < 20; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    fabric.stopAnswering(2);
                    h.restartReplica(2);
                    assertEquals(term[0], h.replicas[2].promised(), "the restarted member kept its promise");
                    for (long v = 20; v < 30; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    fabric.resumeAnswering(2);
                    boolean back = false;
                    for (int tries = 0; tries < 100 && !back; tries++) {
                        back = l.reattach(2, TIMEOUT);
                        if (!back) {
                            ThreadTime.parkNanos(null, 100_000);
                        }
                    }
                    assertTrue(back, "the restarted follower is attached");
                    writes[0] = l.catchUpWrites();
                    for (long v = 30; v < 40; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    l.flushCommit(TIMEOUT);
                    l.close();
                });
                h.stopReplicas(1_000_000);
                for (int k = 0; k < 3; k++) {
                    assertEquals(committed, h.applied.get(k), "node " + k + " applied every committed entry");
                }
                assertEquals(30, writes[0], "entries 0..29 written to the empty log, one WRITE each");
            }
        });
    }

    /** A follower stops answering while the leader appends, is detached, answers again and is caught up. */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldCatchUpAFollowerThatWasDownFromTheLeadersLog(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = start(64)) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                List<Long> committed = new ArrayList<>();
                long[] writes = new long[2];
                h.runOn(0, t -> {
                    LogLeader l = LogLeader.takeOver(t, h.group, ReplicaHarness.NAME, TIMEOUT);
                    for (long v = 0; v < 10; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    fabric.stopAnswering(2);
                    for (long v = 10; v < 30; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    l.flushCommit(TIMEOUT);
                    assertFalse(l.isAttached(2));
                    assertEquals(1, l.detachedDown() + l.detachedLagging(), "detached once, for a failed WRITE or a full window");
                    assertFalse(l.reattach(2, TIMEOUT), "a follower that does not answer is not attached");
                    fabric.resumeAnswering(2);
                    boolean back = false;
                    for (int tries = 0; tries < 100 && !back; tries++) {
                        back = l.reattach(2, TIMEOUT);
                        if (!back) {
                            ThreadTime.parkNanos(null, 100_000);
                        }
                    }
                    assertTrue(back, "the follower answering again is attached");
                    writes[0] = l.catchUpWrites();
                    for (long v = 30; v < 40; v++) {
                        l.append(ReplicaHarness.entry(v), TIMEOUT);
                        committed.add(v);
                    }
                    l.flushCommit(TIMEOUT);
                    assertTrue(l.isAttached(2));
                    l.close();
                });
                h.stopReplicas(1_000_000);
                for (int k = 0; k < 3; k++) {
                    assertEquals(committed, h.applied.get(k), "node " + k + " applied every committed entry");
                }
                assertTrue(writes[0] >= 20 && writes[0] <= 30, "one WRITE per entry the follower lacked: " + writes[0]);
            }
        });
    }
}
