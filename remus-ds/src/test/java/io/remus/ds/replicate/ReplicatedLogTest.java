package io.remus.ds.replicate;

import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replicated log on the simulated fabric under the virtual-time scheduler: every seed fixes an
 * interleaving of the leader, the replicas' appliers and the simulated NICs, so each case is a reproducer.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ReplicatedLogTest {
    private static final SimOptions CONNECTX5 = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5);
    private static final SimOptions TORN = CONNECTX5.withTearWords(true).withYieldWhileTearing(true);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 6);
    }

    private static List<Long> range(long n) {
        List<Long> values = new ArrayList<>();
        for (long v = 0; v < n; v++) {
            values.add(v);
        }
        return values;
    }

    /**
     * Appends {@code entries} entries from member 0 and checks that every replica applied exactly them, in order;
     * returns the per-append counts of WRITEs, READs and round trips of the appends before the log wrapped.
     */
    private static long[] appendAndCheck(long seed, SimOptions options, ReplicaGroup group, int slots, int entries,
                                         long[] incomplete) {
        long[] counts = new long[5];
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = new ReplicaHarness(options, group.size(), group, slots, 64)) {
                h.startReplicas();
                h.awaitCreated();
                List<Long> committed = new ArrayList<>();
                h.runOn(group.member(0), t -> {
                    try (LogLeader leader = LogLeader.open(t, group, ReplicaHarness.NAME, 1, TIMEOUT)) {
                        for (long v = 0; v < entries; v++) {
                            long writes = t.postedOperations(Opcode.WRITE);
                            long reads = t.postedOperations(Opcode.READ);
                            long trips = t.roundTrips();
                            assertEquals(v, leader.append(ReplicaHarness.entry(v), TIMEOUT));
                            committed.add(v);
                            if (v < slots) {
                                counts[0] = Math.max(counts[0], t.postedOperations(Opcode.WRITE) - writes);
                                counts[1] = Math.max(counts[1], t.postedOperations(Opcode.READ) - reads);
                                counts[2] = Math.max(counts[2], t.roundTrips() - trips);
                                assertEquals(group.size() - 1, t.postedOperations(Opcode.WRITE) - writes, "WRITEs of append " + v);
                                assertEquals(1, t.roundTrips() - trips, "round trips of append " + v);
                            } else {
                                counts[3] += t.postedOperations(Opcode.READ) - reads;
                                counts[4] += t.roundTrips() - trips;
                            }
                            assertTrue(leader.committed() >= v + 1);
                        }
                        long writes = t.postedOperations(Opcode.WRITE);
                        long trips = t.roundTrips();
                        assertEquals(entries, leader.flushCommit(TIMEOUT));
                        assertEquals(group.size() - 1, t.postedOperations(Opcode.WRITE) - writes, "WRITEs of a commit flush");
                        assertEquals(1, t.roundTrips() - trips, "round trips of a commit flush");
                        assertEquals(0, leader.detachedLagging() + leader.detachedDown(), "no follower was detached");
                    }
                });
                h.stopReplicas(1_000_000);
                for (int k = 0; k < group.size(); k++) {
                    assertEquals(committed, h.applied.get(k), "entries applied by node " + group.member(k));
                    incomplete[0] += h.replicas[k].incompleteSlots();
                }
                assertEquals(range(entries), committed);
            }
        });
        return counts;
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldApplyEveryCommittedEntryInOrderOnEveryReplicaWhenThreeMembersWrapTheLog(long seed) {
        long[] incomplete = new long[1];
        long[] counts = appendAndCheck(seed, CONNECTX5, ReplicaGroup.of(0, 1, 2), 8, 40, incomplete);
        assertArrayEquals(new long[] {2, 0, 1}, Arrays.copyOf(counts, 3), "WRITEs, READs and round trips of an append before the log wraps");
        long looks = counts[4] - 32;
        assertEquals(2 * looks, counts[3], "each look at the followers' applied counts READs both in one round trip");
        assertTrue(looks >= 1 && looks <= 8, "after the wrap, 32 appends on 8 slots looked " + looks + " times (1 round trip each)");
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldApplyEveryCommittedEntryInOrderOnEveryReplicaOfFiveMembers(long seed) {
        long[] incomplete = new long[1];
        long[] counts = appendAndCheck(seed, CONNECTX5, ReplicaGroup.of(0, 1, 2, 3, 4), 16, 30, incomplete);
        assertArrayEquals(new long[] {4, 0, 1}, Arrays.copyOf(counts, 3), "WRITEs, READs and round trips of an append of a 2f+1 = 5 group");
    }

    /** Torn WRITEs: every word lands as two halves and the NIC yields between them, while replicas poll. */
    @Test
    void shouldNeverApplyATornSlotWhenWritesTearAndYield() {
        long[] incomplete = new long[1];
        for (long seed = 1; seed <= 8; seed++) {
            appendAndCheck(seed, TORN, ReplicaGroup.of(0, 1, 2), 8, 30, incomplete);
        }
        assertTrue(incomplete[0] > 0, "replicas saw slots whose WRITE was still landing, and left them: " + incomplete[0]);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldCommitWithAMajorityWhenAFollowerStopsAnswering(long seed) {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = new ReplicaHarness(CONNECTX5, 3, group, 64, 64)) {
                h.startReplicas();
                h.awaitCreated();
                int entries = 30;
                h.runOn(0, t -> {
                    try (LogLeader leader = LogLeader.open(t, group, ReplicaHarness.NAME, 1, TIMEOUT)) {
                        ((SimFabric) h.cluster.fabric()).stopAnswering(2);
                        for (long v = 0; v < entries; v++) {
                            assertEquals(v, leader.append(ReplicaHarness.entry(v), Duration.ofMillis(1)));
                        }
                        leader.flushCommit(Duration.ofMillis(1));
                        assertFalse(leader.isAttached(2), "the silent follower is detached");
                        assertTrue(leader.isAttached(1));
                        assertEquals(entries, leader.committed());
                    }
                });
                h.stopReplicas(1_000_000);
                assertEquals(range(entries), h.applied.get(0));
                assertEquals(range(entries), h.applied.get(1));
                assertEquals(List.of(), h.applied.get(2), "nothing reached the silent follower");
            }
        });
    }

    /** A follower whose applier stops: appends commit, and its slots are reused once the others applied them. */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldReuseSlotsAndDetachAFollowerWhoseApplierIsFrozen(long seed) {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = new ReplicaHarness(CONNECTX5, 3, group, 8, 64)) {
                h.frozen.set(2, 1);
                h.startReplicas();
                h.awaitCreated();
                int entries = 30;
                AtomicLong lagging = new AtomicLong();
                h.runOn(0, t -> {
                    try (LogLeader leader = LogLeader.open(t, group, ReplicaHarness.NAME, 1, TIMEOUT)) {
                        for (long v = 0; v < entries; v++) {
                            assertEquals(v, leader.append(ReplicaHarness.entry(v), TIMEOUT));
                        }
                        leader.flushCommit(TIMEOUT);
                        lagging.set(leader.detachedLagging());
                        assertFalse(leader.isAttached(2));
                    }
                });
                h.frozen.set(2, 0);
                h.stopReplicas(1_000_000);
                assertEquals(1, lagging.get(), "the frozen follower was detached for lagging");
                assertEquals(range(entries), h.applied.get(0));
                assertEquals(range(entries), h.applied.get(1));
                List<Long> late = h.applied.get(2);
                assertEquals(range(late.size()), late, "the thawed follower applied a prefix of the committed entries");
                assertTrue(late.size() <= 8, "it never saw an entry after it was detached: " + late.size());
            }
        });
    }

    /**
     * Both followers switch their write access to node 1 while node 0 appends without pause: node 0's append
     * is refused, typed, and nothing it wrote after a follower's switch returned lands there or is applied.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldFenceAStaleLeaderWhoseFollowersSwitchedTheirGrant(long seed) {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = new ReplicaHarness(CONNECTX5, 3, group, 256, 64)) {
                h.startReplicas();
                h.awaitCreated();
                List<Long> committed = new ArrayList<>();
                long[] fenced = new long[2];
                MemorySegment[] atSwitch = new MemorySegment[2];
                long[] logs = new long[3];
                Thread switcher = io.remus.core.time.ThreadTime.newThread("switcher", () -> {
                    io.remus.core.time.ThreadTime.parkNanos(null, 60_000 + seed * 7_919);
                    for (int k = 1; k <= 2; k++) {
                        h.switchGrant(k, 1);
                        long bytes = LogLayout.logBytes(256, 64);
                        atSwitch[k - 1] = MemorySegment.ofArray(new byte[(int) bytes]);
                        atSwitch[k - 1].copyFrom(h.cluster.raw(h.replicas[k].ptr(), bytes));
                    }
                });
                switcher.start();
                h.runOn(0, t -> {
                    LogLeader leader = LogLeader.open(t, group, ReplicaHarness.NAME, 1, TIMEOUT);
                    LeaderFencedException e = assertThrows(LeaderFencedException.class, () -> {
                        for (long v = 0; v < 200; v++) {
                            leader.append(ReplicaHarness.entry(v), TIMEOUT);
                            committed.add(v);
                        }
                    });
                    assertTrue(e.refusingNode() == 1 || e.refusingNode() == 2, e.getMessage());
                    assertTrue(leader.isDeposed());
                    long writes = t.postedOperations(Opcode.WRITE);
                    assertThrows(LeaderFencedException.class, () -> leader.append(ReplicaHarness.entry(999), TIMEOUT));
                    assertThrows(LeaderFencedException.class, () -> leader.flushCommit(TIMEOUT));
                    assertEquals(writes, t.postedOperations(Opcode.WRITE), "a deposed leader posts nothing");
                    leader.close();
                    fenced[0] = leader.fencedWrites();
                });
                assertTrue(io.remus.core.time.ThreadTime.join(switcher, 10 * ReplicaHarness.SECOND));
                h.stopReplicas(1_000_000);
                assertTrue(fenced[0] >= 1, "refused WRITEs counted: " + fenced[0]);
                assertTrue(committed.size() < 200, "the switch came before the leader finished");
                for (int k = 0; k < 3; k++) {
                    List<Long> applied = h.applied.get(k);
                    assertEquals(committed.subList(0, applied.size()), applied,
                            "node " + k + " applied a prefix of what the stale leader committed");
                }
                for (int k = 1; k <= 2; k++) {
                    long bytes = LogLayout.logBytes(256, 64);
                    MemorySegment now = h.cluster.raw(h.replicas[k].ptr(), bytes);
                    MemorySegment before = atSwitch[k - 1];
                    long at = LogLayout.APPLIED;
                    before.asSlice(at, 8).copyFrom(now.asSlice(at, 8));
                    assertEquals(-1, before.mismatch(now), "no WRITE of the stale leader landed on node " + k
                            + " after its switch returned (" + RemotePtr.toString(h.replicas[k].ptr()) + ")");
                }
            }
        });
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldTimeOutTypedAtTheCallersDeadlineWhenNoMajorityAnswers(long seed) {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (ReplicaHarness h = new ReplicaHarness(CONNECTX5, 3, group, 16, 64)) {
                h.startReplicas();
                h.awaitCreated();
                h.runOn(0, t -> {
                    try (LogLeader leader = LogLeader.open(t, group, ReplicaHarness.NAME, 1, TIMEOUT)) {
                        assertEquals(0, leader.append(ReplicaHarness.entry(0), TIMEOUT));
                        ((SimFabric) h.cluster.fabric()).stopAnswering(1);
                        ((SimFabric) h.cluster.fabric()).stopAnswering(2);
                        RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class,
                                () -> leader.append(ReplicaHarness.entry(1), Duration.ofMillis(1)));
                        assertTrue(e.getMessage().contains("entry 1"), e.getMessage());
                        assertEquals(1, leader.committed());
                    }
                });
                h.stopReplicas(1_000_000);
                for (int k = 0; k < 3; k++) {
                    assertTrue(h.applied.get(k).size() <= 1, "entry 1 was never committed, so nobody applied it");
                }
            }
        });
    }
}
