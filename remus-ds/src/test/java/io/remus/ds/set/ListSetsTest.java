package io.remus.ds.set;

import io.remus.ds.testing.Counts;
import io.remus.ds.testing.Contention;
import io.remus.alock.LockContext;
import io.remus.alock.LockKind;
import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.CorruptedMemoryException;
import io.remus.core.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LockFreeListSet}, {@link LazyListSet} (spin, ALock and MCS locks) and {@link LockFreeSkipListSet}: set behaviour through handles
 * on several nodes, the refused keys and calls, and the RDMA operations per call, counted with the compute
 * thread's counters on an uncontended set.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListSetsTest {
    private static final int HOME = SetHistories.HOME;
    /** A node that is not the home node: every access to the set is an RDMA operation. */
    private static final int REMOTE = 0;

    static Stream<Named<SetMaker>> sets() {
        return Stream.concat(lists(), Stream.of(Named.of("LockFreeSkipListSet", SetMaker.skipList())));
    }

    /** The sorted lists, whose walks READ one 32-byte node per key passed. */
    static Stream<Named<SetMaker>> lists() {
        return Stream.of(SetMaker.lockFree(), SetMaker.lazy(LockKind.SPIN), SetMaker.lazy(LockKind.ALOCK),
                SetMaker.lazy(LockKind.MCS)).map(m -> Named.of(m.name(), m));
    }

    /** The lock-free sets, each with the offset of its level-0 {@code next} word in a node. */
    static Stream<Arguments> walkingSets() {
        return Stream.of(Arguments.of(Named.of("LockFreeListSet", SetMaker.lockFree()), ListLayout.NEXT),
                Arguments.of(Named.of("LockFreeSkipListSet(1)", SetMaker.skipList(1)), LockFreeSkipListSet.NEXT),
                Arguments.of(Named.of("LazyListSet(SPIN)", SetMaker.lazy(LockKind.SPIN)), ListLayout.NEXT));
    }

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> b.segmentSize(4 << 20));
    }

    @ParameterizedTest
    @MethodSource("sets")
    void shouldAnswerAsASetWhenHandlesOnSeveralNodesTakeTurns(SetMaker maker) {
        try (TestCluster c = cluster()) {
            List<ComputeThread> threads = new ArrayList<>();
            List<Reclaimer> reclaimers = new ArrayList<>();
            List<RemoteSet> sets = new ArrayList<>();
            try {
                for (int node = 0; node < 3; node++) {
                    ComputeThread t = c.thread(node);
                    threads.add(t);
                    reclaimers.add(new NeverReclaimer(t));
                }
                long ptr = maker.create(threads.get(0), reclaimers.get(0), HOME);
                for (int i = 0; i < 3; i++) {
                    sets.add(maker.attach(threads.get(i), reclaimers.get(i), ptr));
                }
                TreeSet<Long> model = new TreeSet<>();
                SplittableRandom rnd = new SplittableRandom(42);
                for (int i = 0; i < 600; i++) {
                    RemoteSet s = sets.get(rnd.nextInt(3));
                    long key = rnd.nextInt(40) - 20;
                    switch (rnd.nextInt(3)) {
                        case 0 -> assertEquals(model.add(key), s.insert(key), "insert " + key);
                        case 1 -> assertEquals(model.remove(key), s.remove(key), "remove " + key);
                        default -> assertEquals(model.contains(key), s.contains(key), "contains " + key);
                    }
                }
                RemoteSet s = sets.get(0);
                assertTrue(s.insert(RemoteSet.MIN_KEY) && s.insert(RemoteSet.MAX_KEY), "the extreme keys are keys");
                assertTrue(s.contains(RemoteSet.MIN_KEY) && s.contains(RemoteSet.MAX_KEY));
                assertTrue(s.remove(RemoteSet.MAX_KEY) && !s.contains(RemoteSet.MAX_KEY));
            } finally {
                sets.forEach(RemoteSet::close);
                reclaimers.forEach(Reclaimer::close);
                threads.forEach(ComputeThread::close);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("sets")
    void shouldRefuseTheSentinelKeysNamingThemWhenAnyOperationGetsOne(SetMaker maker) {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             RemoteSet s = maker.attach(t, r, maker.create(t, r, HOME))) {
            for (long key : new long[]{Long.MIN_VALUE, Long.MAX_VALUE}) {
                SetKeyException e = assertThrows(SetKeyException.class, () -> s.insert(key));
                assertEquals(key, e.key());
                assertTrue(e.getMessage().contains(Long.toString(key)), e.getMessage());
                assertEquals(key, assertThrows(SetKeyException.class, () -> s.remove(key)).key());
                assertEquals(key, assertThrows(SetKeyException.class, () -> s.contains(key)).key());
            }
            assertFalse(s.contains(0), "nothing was added by the refused calls");
        }
    }

    @ParameterizedTest
    @MethodSource("sets")
    void shouldRefuseEveryCallWhenTheHandleIsClosed(SetMaker maker) {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t)) {
            long ptr = maker.create(t, r, HOME);
            RemoteSet s = maker.attach(t, r, ptr);
            assertTrue(s.insert(7));
            s.close();
            s.close();
            assertThrows(ClosedSetException.class, () -> s.insert(8));
            assertThrows(ClosedSetException.class, () -> s.remove(7));
            assertThrows(ClosedSetException.class, () -> s.contains(7));
            try (RemoteSet other = maker.attach(t, r, ptr)) {
                assertTrue(other.contains(7), "closing a handle leaves the set");
            }
        }
    }

    @Test
    void shouldRefuseToAttachWhenThePointerIsNoSuchSet() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t)) {
            LockContext context = new LockContext(t, SetMaker.LOCKS);
            long lazy = SetMaker.lazy(LockKind.SPIN).create(t, r, HOME);
            long lockFree = SetMaker.lockFree().create(t, r, HOME);
            long skip = SetMaker.skipList().create(t, r, HOME);
            assertThrows(BadArgumentException.class, () -> LockFreeListSet.attach(t, r, lazy));
            assertThrows(BadArgumentException.class, () -> LockFreeSkipListSet.attach(t, r, lockFree));
            assertThrows(BadArgumentException.class, () -> LockFreeListSet.attach(t, r, skip));
            assertThrows(BadArgumentException.class, () -> LockFreeSkipListSet.attach(t, r, skip + 4));
            assertThrows(BadArgumentException.class, () -> LazyListSet.attach(context, r, lockFree));
            assertThrows(BadArgumentException.class, () -> LockFreeListSet.attach(t, r, 0L));
            assertThrows(BadArgumentException.class, () -> LazyListSet.attach(context, r, lockFree + 4));
            assertEquals(LockKind.SPIN, LazyListSet.attach(context, r, lazy).lockKind(), "the root names the lock kind");
        }
    }

    @Test
    void shouldFreeEveryNodeAndTheRootWhenDestroyed() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults().withPoisonFreedBlocks(true), 3, b -> { });
             ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t)) {
            LockContext context = new LockContext(t, SetMaker.LOCKS);
            LockFreeListSet lockFree = LockFreeListSet.create(t, r, HOME);
            LazyListSet lazy = LazyListSet.create(context, r, LockKind.SPIN, HOME);
            LockFreeSkipListSet skip = LockFreeSkipListSet.create(t, r, HOME);
            for (long k = 1; k <= 5; k++) {
                assertTrue(lockFree.insert(k) && lazy.insert(k) && skip.insert(k));
            }
            assertTrue(lockFree.remove(3) && lazy.remove(3) && skip.remove(3));
            lockFree.destroy();
            lazy.destroy();
            skip.destroy();
            assertThrows(ClosedSetException.class, () -> lockFree.contains(1), "a destroyed set's handle is closed");
            assertThrows(ClosedSetException.class, () -> lazy.contains(1));
            assertThrows(ClosedSetException.class, () -> skip.contains(1));
            assertThrows(BadArgumentException.class, () -> LockFreeSkipListSet.attach(t, r, skip.ptr()));
            assertThrows(BadArgumentException.class, () -> LockFreeListSet.attach(t, r, lockFree.ptr()), "the root was freed (poisoned)");
            assertThrows(BadArgumentException.class, () -> LazyListSet.attach(context, r, lazy.ptr()));
        }
    }

    /** Nodes a walk for {@code key} visits in a list of {@code keys} without marked nodes: the head, the smaller keys, the node found unless it is the tail. */
    private static int visited(long[] keys, long key) {
        int smaller = 0;
        for (long k : keys) {
            if (k < key) {
                smaller++;
            }
        }
        return 1 + smaller + (smaller < keys.length ? 1 : 0);
    }

    @ParameterizedTest
    @MethodSource("lists")
    void shouldReadEachVisitedNodeOnceWhenContainsWalksAnUncontendedList(SetMaker maker) {
        long[] keys = {10, 20, 30, 40, 50, 60, 70, 80};
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             RemoteSet s = maker.attach(t, r, maker.create(t, r, HOME))) {
            for (long k : keys) {
                assertTrue(s.insert(k));
            }
            for (long key = 5; key <= 90; key += 5) {
                Counts before = Counts.of(t);
                boolean present = s.contains(key);
                Counts used = before.since(t);
                int v = visited(keys, key);
                assertEquals(key % 10 == 0 && key <= 80, present, "contains " + key);
                assertTrue(v <= keys.length + 1);
                assertEquals(new Counts(v, v + 1, 0, 0, 0, 32L * v + 8, 0), used,
                        "contains " + key + ": one 32-byte READ per visited node, and the root header's 8 bytes with the head");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("sets")
    void shouldPostNothingWhenContainsRunsOnTheHomeNode(SetMaker maker) {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(HOME); NeverReclaimer r = new NeverReclaimer(t);
             RemoteSet s = maker.attach(t, r, maker.create(t, r, HOME))) {
            assertTrue(s.insert(1) && s.insert(2));
            Counts before = Counts.of(t);
            assertTrue(s.contains(2));
            assertFalse(s.contains(3));
            assertEquals(new Counts(0, 0, 0, 0, 0, 0, 0), before.since(t), "the walk's READs are CPU loads on the home node");
        }
    }

    @Test
    void shouldCostOneRoundTripPerVisitedNodePlusOneOrTwoWhenTheLockFreeListChangesUncontended() {
        long[] keys = {10, 20, 30, 40};
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             LockFreeListSet s = LockFreeListSet.attach(t, r, SetMaker.lockFree().create(t, r, HOME))) {
            for (long k : keys) {
                assertTrue(s.insert(k));
            }
            assertFalse(s.insert(30), "present: no change, and the handle keeps a spare node");
            long allocations = s.allocatorRoundTrips();
            int v = visited(keys, 25);
            Counts before = Counts.of(t);
            assertTrue(s.insert(25));
            assertEquals(new Counts(v + 1, v + 1, 1, 1, 0, 32L * v + 8, 32), before.since(t), "insert: v READs (and the root header's with the head), then a WRITE and a compare-and-swap in one batch");
            assertEquals(allocations, s.allocatorRoundTrips(), "the spare node was used");
            assertFalse(s.insert(10), "present: the handle allocates its next spare node");
            long[] now = {10, 20, 25, 30, 40};
            v = visited(now, 25);
            before = Counts.of(t);
            assertFalse(s.insert(25));
            assertEquals(new Counts(v, v + 1, 0, 0, 0, 32L * v + 8, 0), before.since(t), "insert of a present key: the walk only");
            before = Counts.of(t);
            assertTrue(s.remove(25));
            assertEquals(new Counts(v + 2, v + 1, 0, 2, 0, 32L * v + 8, 0), before.since(t), "remove: v READs, mark and unlink");
            v = visited(keys, 25);
            before = Counts.of(t);
            assertFalse(s.remove(25));
            assertEquals(new Counts(v, v + 1, 0, 0, 0, 32L * v + 8, 0), before.since(t), "remove of an absent key: the walk only");
        }
    }

    @Test
    void shouldCostTheWalkPlusFiveOrSixRoundTripsWhenTheLazyListChangesUncontendedWithSpinLocks() {
        long[] keys = {10, 20, 30, 40};
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             LazyListSet s = LazyListSet.attach(new LockContext(t, SetMaker.LOCKS), r, SetMaker.lazy(LockKind.SPIN).create(t, r, HOME))) {
            for (long k : keys) {
                assertTrue(s.insert(k));
            }
            assertFalse(s.insert(30), "present: the handle keeps its spare node");
            int v = visited(keys, 25);
            Counts before = Counts.of(t);
            assertTrue(s.insert(25));
            // v READs (the head's with the root header's); lock pred and curr (a compare-and-swap each); validation: 2 READs in one batch; WRITE + CAS in one batch; 2 unlocks.
            assertEquals(new Counts(v + 6, v + 3, 1, 5, 0, 32L * (v + 2) + 8, LazyListSet.NODE_BYTES), before.since(t), "insert");
            assertFalse(s.insert(10), "present: the handle allocates its next spare node");
            long[] now = {10, 20, 25, 30, 40};
            v = visited(now, 25);
            before = Counts.of(t);
            assertFalse(s.insert(25));
            assertEquals(new Counts(v + 5, v + 3, 0, 4, 0, 32L * (v + 2) + 8, 0), before.since(t), "insert of a present key");
            before = Counts.of(t);
            assertTrue(s.remove(25));
            // ... and mark + unlink: 2 compare-and-swaps in one batch.
            assertEquals(new Counts(v + 6, v + 3, 0, 6, 0, 32L * (v + 2) + 8, 0), before.since(t), "remove");
            v = visited(keys, 99);
            before = Counts.of(t);
            assertFalse(s.remove(99));
            // The node found is the tail: never read, so the validation is 1 READ.
            assertEquals(new Counts(v + 5, v + 2, 0, 4, 0, 32L * (v + 1) + 8, 0), before.since(t), "remove of an absent key past the last");
        }
    }

    @ParameterizedTest
    @MethodSource("sets")
    void shouldKeepEveryThreadsKeysWhenThreadsInsertAndRemoveDisjointKeysAtOnce(SetMaker maker) throws InterruptedException {
        int threads = 4;
        int perThread = 40;
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                ptr = maker.create(t, r, HOME);
            }
            c.runOnThreads(Contention.spread(threads, 3), (index, t) -> {
                try (NeverReclaimer r = new NeverReclaimer(t); RemoteSet s = maker.attach(t, r, ptr)) {
                    for (int i = 0; i < perThread; i++) {
                        Contention.maybeYield();
                        assertTrue(s.insert((long) i * threads + index), "insert of a key only this thread touches");
                    }
                    for (int i = 0; i < perThread; i += 2) {
                        Contention.maybeYield();
                        assertTrue(s.remove((long) i * threads + index), "remove of a key this thread inserted");
                    }
                }
            });
            try (ComputeThread t = c.thread(2); NeverReclaimer r = new NeverReclaimer(t); RemoteSet s = maker.attach(t, r, ptr)) {
                for (long key = 0; key < (long) threads * perThread; key++) {
                    assertEquals((key / threads) % 2 == 1, s.contains(key), "key " + key);
                }
            }
        }
    }

    /** The node of {@code key}, found by READs along the level-0 {@code next} words from the head of the set at {@code root}. */
    private static long nodeOf(ComputeThread t, long root, long key, long nextOffset) {
        long node = ListLayout.unmarked(t.read(RemotePtr.offset(t.read(RemotePtr.offset(root, ListLayout.HEAD)), nextOffset)));
        while (t.read(RemotePtr.offset(node, ListLayout.KEY)) != key) {
            node = ListLayout.unmarked(t.read(RemotePtr.offset(node, nextOffset)));
        }
        return node;
    }

    @ParameterizedTest
    @MethodSource("walkingSets")
    void shouldThrowCorruptedMemoryExceptionWhenANextPointerPastTheFirstNodeLeadsToABlockThatIsNoNode(SetMaker maker, long nextOffset) {
        long junk = 0x5A5A5A5A5A5A5A5AL;
        // Preemptive: a walk that restarts from the head at each bad read, and counts the good reads before the
        // bad pointer as a recovery, never ends.
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
                 RemoteSet s = maker.attach(t, r, maker.create(t, r, HOME))) {
                for (long k = 1; k <= 5; k++) {
                    assertTrue(s.insert(k));
                }
                long garbage = t.allocator().allocate(64, HOME);
                for (long at = 0; at < 64; at += 8) {
                    t.write(RemotePtr.offset(garbage, at), junk);
                }
                t.write(RemotePtr.offset(nodeOf(t, s.ptr(), 3, nextOffset), nextOffset), garbage);
                assertTrue(s.contains(2) && s.contains(3), "walks that stop before the bad pointer");
                for (Runnable call : new Runnable[]{() -> s.contains(4), () -> s.insert(4), () -> s.remove(5), () -> s.insert(6)}) {
                    CorruptedMemoryException e = assertThrows(CorruptedMemoryException.class, call::run);
                    assertEquals(garbage, e.word(), e.getMessage());
                    assertEquals(junk, e.value(), e.getMessage());
                    assertTrue(e.getMessage().contains(maker.name().replaceAll("\\(.*", "")), e.getMessage());
                }
                assertTrue(s.remove(2) && !s.contains(2) && s.insert(2), "the part of the set before the bad pointer still works");
            }
        });
    }

    /**
     * A next pointer that names no bytes of a segment (as a READ torn between two pointers that differ in their upper
     * 32 bits does): walks read it again, and one that stays so is a corrupted set, never the caller's bad argument.
     */
    @ParameterizedTest
    @MethodSource("walkingSets")
    void shouldThrowCorruptedMemoryExceptionWhenANextPointerPastTheFirstNodePointsOutsideEverySegment(SetMaker maker,
                                                                                                  long nextOffset) {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
                 RemoteSet s = maker.attach(t, r, maker.create(t, r, HOME))) {
                for (long k = 1; k <= 5; k++) {
                    assertTrue(s.insert(k));
                }
                long outside = RemotePtr.of(HOME, 64);
                assertFalse(t.isPublished(outside, 8));
                t.write(RemotePtr.offset(nodeOf(t, s.ptr(), 3, nextOffset), nextOffset), outside);
                assertTrue(s.contains(2) && s.contains(3), "walks that stop before the bad pointer");
                for (Runnable call : new Runnable[]{() -> s.contains(4), () -> s.insert(4), () -> s.remove(5), () -> s.insert(6)}) {
                    CorruptedMemoryException e = assertThrows(CorruptedMemoryException.class, call::run);
                    assertEquals(outside, e.word(), e.getMessage());
                    assertTrue(e.getMessage().contains(maker.name().replaceAll("\\(.*", "")), e.getMessage());
                }
                assertTrue(s.remove(2) && !s.contains(2) && s.insert(2), "the part of the set before the bad pointer still works");
            }
        });
    }
}
