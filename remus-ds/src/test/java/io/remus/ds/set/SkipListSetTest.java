package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.LeaseExpiredException;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LockFreeSkipListSet}: the set contract ({@link RemoteSetContractTest}), and on its own: the RDMA
 * operations per call counted with the compute thread's counters on an uncontended set (a search READs about
 * {@code 2 log2 n} nodes, not {@code n}), its levels, a lease that runs out during a walk, and its broken twin
 * whose remove frees a node still linked ({@link BrokenSkipListSet.Flaw#RETIRE_LINKED}), caught by the torn-pointer
 * check on a poisoned block, and the race of an inserter and a remover of one key at an upper level, played step by
 * step. Histories are in {@link ListSetHistoriesTest}.
 */
class SkipListSetTest extends RemoteSetContractTest {
    @Override
    StructureKind kind() {
        return StructureKind.LOCK_FREE_SKIP_LIST_SET;
    }

    @Override
    SetMaker maker() {
        return SetMaker.skipList();
    }

    /** One level: the corrupted pointer is on the one list every walk follows. */
    @Override
    SetMaker walkingMaker() {
        return SetMaker.skipList(1);
    }

    @Override
    long nextOffset() {
        return LockFreeSkipListSet.NEXT;
    }

    @Override
    RemoteSet create(ComputeThread t, Reclaimer r, int home) {
        return LockFreeSkipListSet.create(t, r, home, 4);
    }

    @Override
    RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
        return LockFreeSkipListSet.attach(t, r, ptr);
    }

    @Override
    void destroy(RemoteSet set) {
        ((LockFreeSkipListSet) set).destroy();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCostTheWalkPlusOneBatchAndTwoCompareAndSwapsPerUpperLevelWhenInsertIsUncontended() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             LockFreeSkipListSet s = LockFreeSkipListSet.create(t, r, HOME)) {
            int bytes = LockFreeSkipListSet.nodeBytes(s.maxLevel());
            int tall = 0;
            for (long key = 1; key <= 40; key++) {
                long k = key * 7919 % 1000;
                Counts walk = Counts.of(t);
                assertFalse(s.contains(k));
                walk = walk.since(t);
                long v = walk.roundTrips();
                assertEquals(new Counts(v, v + 1, 0, 0, 0, (long) bytes * v + 8, 0), walk,
                        "contains " + k + ": READs of whole nodes, the root header's 8 bytes with the head, nothing else");
                assertTrue(s.insert(k));
                assertFalse(s.insert(k), "present: the handle allocates its next spare node");
                assertTrue(s.remove(k));
                long allocations = s.allocatorRoundTrips();
                Counts before = Counts.of(t);
                assertTrue(s.insert(k));
                Counts used = before.since(t);
                assertEquals(allocations, s.allocatorRoundTrips(), "the spare node was used");
                int h = s.lastHeight();
                int check = h > 1 ? 1 : 0;
                tall += check;
                // The walk as contains' (the root header's READ with the head), the WRITE and level 0's compare-and-swap in one batch, 2 compare-and-swaps
                // per upper level, and for h > 1 the 8-byte READ of next[0] after the last link.
                assertEquals(new Counts(v + 1 + 2L * (h - 1) + check, v + 1 + check, 1, 1 + 2L * (h - 1), 0,
                        (long) bytes * v + 8 + 8L * check, bytes), used, "insert " + k + " of height " + h);
            }
            assertTrue(tall > 0, "some nodes got more than one level");
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldUnlinkTheNodeAtEveryLevelWhenRemoveIsUncontended() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             LockFreeSkipListSet s = LockFreeSkipListSet.create(t, r, HOME)) {
            for (long k = 0; k < 64; k++) {
                assertTrue(s.insert(k * 10));
            }
            for (long k = 5; k < 640; k += 40) {
                Counts walk = Counts.of(t);
                assertFalse(s.contains(k));
                walk = walk.since(t);
                assertTrue(s.insert(k));
                int h = s.lastHeight();
                Counts before = Counts.of(t);
                assertTrue(s.remove(k));
                Counts used = before.since(t);
                assertEquals(0, used.writes());
                assertEquals(2L * h, used.compareAndSwaps(), "remove " + k + ": " + h + " marks and " + h + " unlinks");
                assertTrue(used.reads() >= walk.reads() && used.reads() <= 3 * walk.reads() + h,
                        "remove " + k + ": the find and the second find, " + used);
                before = Counts.of(t);
                assertFalse(s.contains(k));
                assertEquals(walk, before.since(t), "the node is gone at every level: the walk is the one before the insert");
                before = Counts.of(t);
                assertFalse(s.remove(k));
                Counts absent = before.since(t);
                assertEquals(new Counts(walk.roundTrips(), walk.reads(), 0, 0, 0, walk.bytesRead(), 0), absent, "remove of an absent key: the walk only");
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldReadFarFewerNodesThanTheSetHoldsWhenContainsSearchesAThousandKeys() {
        int n = 1000;
        int maxLevel = LockFreeSkipListSet.DEFAULT_MAX_LEVEL;
        try (TestCluster c = cluster(); ComputeThread home = c.thread(HOME); NeverReclaimer hr = new NeverReclaimer(home);
             LockFreeSkipListSet filler = LockFreeSkipListSet.create(home, hr, HOME);
             ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             LockFreeSkipListSet s = LockFreeSkipListSet.attach(t, r, filler.ptr())) {
            for (long k = 0; k < n; k++) {
                assertTrue(filler.insert(2 * k));
            }
            double log2n = Math.log(n) / Math.log(2);
            long bound = (long) (4 * log2n) + maxLevel;
            long total = 0;
            SplittableRandom rnd = new SplittableRandom(7);
            int searches = 100;
            for (int i = 0; i < searches; i++) {
                long key = rnd.nextInt(2 * n);
                Counts before = Counts.of(t);
                assertEquals(key % 2 == 0, s.contains(key), "contains " + key);
                long reads = before.since(t).reads();
                assertTrue(reads < bound, "contains " + key + " READ " + reads + " nodes of " + n + ", bound 4 log2 n + maxLevel = " + bound);
                total += reads;
            }
            assertTrue(total < searches * 3 * log2n, "about 2 log2 n READs a search on average, got " + (double) total / searches);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRefuseALevelCountNamingItWhenOutOfRange() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t)) {
            for (int bad : new int[]{0, -1, LockFreeSkipListSet.MAX_LEVEL_LIMIT + 1}) {
                BadArgumentException e = assertThrows(BadArgumentException.class, () -> LockFreeSkipListSet.create(t, r, HOME, bad));
                assertTrue(e.getMessage().contains("got " + bad), e.getMessage());
                assertThrows(BadArgumentException.class, () -> LockFreeSkipListSet.nodeBytes(bad));
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldKeepItsLevelCountInTheRootWhenAnotherThreadAttaches() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             LockFreeSkipListSet created = LockFreeSkipListSet.create(t, r, HOME, 1);
             ComputeThread other = c.thread(2); NeverReclaimer or = new NeverReclaimer(other);
             LockFreeSkipListSet s = LockFreeSkipListSet.attach(other, or, created.ptr())) {
            assertEquals(1, s.maxLevel());
            assertEquals(40, LockFreeSkipListSet.nodeBytes(1));
            for (long k = 20; k > 0; k--) {
                assertTrue(s.insert(k));
            }
            assertEquals(1, s.lastHeight(), "one level: a sorted lock-free list");
            assertTrue(created.remove(7) && !s.contains(7) && s.contains(8));
            assertThrows(BadArgumentException.class, () -> LockFreeListSet.attach(t, r, created.ptr()), "not a LockFreeListSet's root");
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldStartContainsOverInAFreshGuardWhenTheLeaseRunsOutDuringAWalk() {
        AtomicLong clock = new AtomicLong(1_000_000);
        AtomicBoolean jump = new AtomicBoolean();
        AtomicInteger calls = new AtomicInteger();
        EpochOptions options = EpochOptions.defaults().withLease(Duration.ofMillis(100)).withClock(() -> {
            if (jump.get() && calls.incrementAndGet() == 2) {
                return clock.addAndGet(1_000);
            }
            return clock.get();
        });
        try (TestCluster c = new TestCluster(SimFabric::new, SetHistories.hostile(), 3, b -> { });
             ComputeThread t = c.thread(0); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), options);
             LockFreeSkipListSet s = LockFreeSkipListSet.create(t, r, 2)) {
            for (long k = 1; k <= 3; k++) {
                assertTrue(s.insert(k));
            }
            Counts before = Counts.of(t);
            assertTrue(s.contains(2));
            long once = before.since(t).reads();
            calls.set(0);
            before = Counts.of(t);
            jump.set(true);
            assertTrue(s.contains(2));
            jump.set(false);
            assertTrue(calls.get() >= 3, "the clock was read again for a fresh guard");
            assertTrue(before.since(t).reads() > once, "the first walk was not trusted: walked again");
            calls.set(0);
            jump.set(true);
            assertTrue(s.insert(4));
            jump.set(false);
            calls.set(0);
            jump.set(true);
            assertTrue(s.remove(1));
            jump.set(false);
            assertTrue(s.contains(4) && s.contains(2) && s.contains(3));
            assertFalse(s.contains(1));

            Guard outer = r.enter();
            clock.addAndGet(1_000);
            assertThrows(LeaseExpiredException.class, () -> s.contains(2), "an outer guard whose lease ran out cannot be renewed inside");
            assertThrows(LeaseExpiredException.class, () -> s.insert(5));
            assertThrows(LeaseExpiredException.class, () -> s.remove(2));
            outer.close();
            assertTrue(s.contains(2));
            assertFalse(s.contains(5));
        }
    }

    /** Inserts 1..40, removes the keys 10..30 through {@code remover}, frees what was retired, and looks up every key. */
    private static void removeFreeAndWalk(SetMaker remover) {
        try (TestCluster c = new TestCluster(SimFabric::new, SetHistories.hostile(), 3, b -> b.segmentSize(4 << 20));
             ComputeThread t = c.thread(REMOTE); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), EpochOptions.defaults());
             RemoteSet s = remover.attach(t, r, remover.create(t, r, HOME))) {
            for (long k = 1; k <= 40; k++) {
                assertTrue(s.insert(k));
            }
            for (long k = 10; k <= 30; k++) {
                assertTrue(s.remove(k));
            }
            for (int i = 0; i < 4; i++) {
                r.reclaim();
            }
            assertEquals(0, r.unreclaimedBytes(), "every removed node was freed (and poisoned)");
            for (long k = 1; k <= 40; k++) {
                assertEquals(k < 10 || k > 30, s.contains(k), "contains " + k);
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldFreeOnlyUnlinkedNodesWhenRemoveRetiresAfterItsFind() {
        removeFreeAndWalk(SetMaker.skipList());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCatchTheTwinWhenItsRemoveRetiresANodeStillLinked() {
        CorruptedMemoryException e = assertThrows(CorruptedMemoryException.class,
                () -> removeFreeAndWalk(SetMaker.brokenSkipList(BrokenSkipListSet.Flaw.RETIRE_LINKED)));
        assertTrue(e.getMessage().contains("LockFreeSkipListSet"), e.getMessage());
    }

    /**
     * The race behind Fraser's rule with two nodes of one key, played step by step with clock hooks: an inserter
     * of key 5 READs level 1 while the old node of key 5 ({@code old}, two levels) is still unmarked there; a
     * remover then marks {@code old} at both levels and stops before its unlinking {@code find}; the inserter
     * goes on (its READ of level 0 unlinks {@code old} there) and links its node at both levels; then the remover
     * finishes and retires {@code old}. Had the inserter linked level 1 in front of {@code old}, the remover's
     * {@code find} would stop at the new node there and {@code old} would be freed while still linked: the walk
     * after the free would meet its poison. The step only happens when the inserter draws two levels, so the
     * scenario is played until it does.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldNotLinkAnUpperLevelInFrontOfARemovedNodeOfTheSameKey() throws Exception {
        boolean played = false;
        for (int attempt = 0; attempt < 40 && !played; attempt++) {
            played = playReinsertRace();
        }
        assertTrue(played, "the inserter drew two levels in one of 40 tries");
    }

    /** One play of {@link #shouldNotLinkAnUpperLevelInFrontOfARemovedNodeOfTheSameKey}; false when the inserter drew one level. */
    private static boolean playReinsertRace() throws Exception {
        ExecutorService inserterThread = Executors.newSingleThreadExecutor();
        ExecutorService removerThread = Executors.newSingleThreadExecutor();
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults().withPoisonFreedBlocks(true), 3,
                b -> b.segmentSize(4 << 20))) {
            AtomicLong old = new AtomicLong(RemotePtr.NULL);
            AtomicBoolean inserterArmed = new AtomicBoolean();
            AtomicBoolean removerArmed = new AtomicBoolean();
            CountDownLatch removerMarked = new CountDownLatch(1);
            CountDownLatch inserterDone = new CountDownLatch(1);
            AtomicReference<Future<Boolean>> removal = new AtomicReference<>();
            AtomicReference<ComputeThread> inserterThreadRef = new AtomicReference<>();
            AtomicReference<LockFreeSkipListSet> remover = new AtomicReference<>();
            AtomicReference<EpochReclaimer> removerReclaimer = new AtomicReference<>();
            AtomicReference<ComputeThread> removerComputeThread = new AtomicReference<>();
            EpochOptions removerOptions = EpochOptions.defaults().withClock(() -> {
                long o = old.get();
                if (removerArmed.get() && ListLayout.marked(c.raw(RemotePtr.offset(o, LockFreeSkipListSet.NEXT), 8).get(ValueLayout.JAVA_LONG, 0))) {
                    removerArmed.set(false);
                    removerMarked.countDown();
                    await(inserterDone);
                }
                return System.currentTimeMillis();
            });
            EpochOptions inserterOptions = EpochOptions.defaults().withClock(() -> {
                ComputeThread t = inserterThreadRef.get();
                if (inserterArmed.get() && t.buffer().get(ValueLayout.JAVA_LONG, LockFreeSkipListSet.BUF_READ + LockFreeSkipListSet.SELF) == old.get()) {
                    inserterArmed.set(false);
                    removal.set(removerThread.submit(() -> remover.get().remove(5)));
                    await(removerMarked);
                }
                return System.currentTimeMillis();
            });
            // The remover's thread builds the set {3 (one level), 5 (two levels)}, then the inserter attaches.
            long root = removerThread.submit(() -> {
                ComputeThread t = c.thread(REMOTE);
                removerComputeThread.set(t);
                EpochReclaimer r = new EpochReclaimer(t, t.allocator(), removerOptions);
                removerReclaimer.set(r);
                LockFreeSkipListSet s = LockFreeSkipListSet.create(t, r, HOME, 2);
                remover.set(s);
                placeWithHeight(s, 3, 1);
                placeWithHeight(s, 5, 2);
                return s.ptr();
            }).get();
            long head = c.raw(RemotePtr.offset(root, ListLayout.HEAD), 8).get(ValueLayout.JAVA_LONG, 0);
            old.set(c.raw(RemotePtr.offset(head, LockFreeSkipListSet.NEXT + 8), 8).get(ValueLayout.JAVA_LONG, 0));
            AtomicReference<EpochReclaimer> inserterReclaimer = new AtomicReference<>();
            LockFreeSkipListSet inserter = inserterThread.submit(() -> {
                ComputeThread t = c.thread(2);
                inserterThreadRef.set(t);
                EpochReclaimer r = new EpochReclaimer(t, t.allocator(), inserterOptions);
                inserterReclaimer.set(r);
                LockFreeSkipListSet s = LockFreeSkipListSet.attach(t, r, root);
                assertFalse(s.insert(3), "present: the handle keeps its new node as the spare, so the next insert allocates nothing");
                return s;
            }).get();

            inserterArmed.set(true);
            removerArmed.set(true);
            assertTrue(inserterThread.submit(() -> inserter.insert(5)).get(30, TimeUnit.SECONDS), "5 was removed meanwhile: the insert adds it");
            assertEquals(0, removerMarked.getCount(), "the remover marked the old node while the inserter was inside its walk");
            inserterDone.countDown();
            assertTrue(removal.get().get(30, TimeUnit.SECONDS), "the remover removed the old 5");
            if (inserterThread.submit(inserter::lastHeight).get() < 2) {
                closeOn(inserterThread, inserter, inserterReclaimer.get(), inserterThreadRef.get());
                closeOn(removerThread, remover.get(), removerReclaimer.get(), removerComputeThread.get());
                return false;
            }
            removerThread.submit(() -> {
                EpochReclaimer r = removerReclaimer.get();
                for (int i = 0; i < 4; i++) {
                    r.reclaim();
                }
                assertEquals(0, r.unreclaimedBytes(), "the old 5 was freed (and poisoned)");
                return null;
            }).get();
            inserterThread.submit(() -> {
                assertFalse(inserter.contains(6), "a walk past 5 on level 1 meets no freed node");
                assertTrue(inserter.contains(5) && inserter.contains(3));
                return null;
            }).get();
            closeOn(inserterThread, inserter, inserterReclaimer.get(), inserterThreadRef.get());
            closeOn(removerThread, remover.get(), removerReclaimer.get(), removerComputeThread.get());
            return true;
        } finally {
            inserterThread.shutdownNow();
            removerThread.shutdownNow();
        }
    }

    /** Closes a set handle, its reclaimer and its compute thread on the thread that owns them. */
    private static void closeOn(ExecutorService owner, LockFreeSkipListSet s, EpochReclaimer r, ComputeThread t) throws Exception {
        owner.submit(() -> {
            s.close();
            r.close();
            t.close();
            return null;
        }).get();
    }

    /** Inserts {@code key} until its node draws {@code height} levels (removing it between tries). */
    private static void placeWithHeight(LockFreeSkipListSet s, long key, int height) {
        while (true) {
            assertTrue(s.insert(key));
            if (s.lastHeight() == height) {
                return;
            }
            assertTrue(s.remove(key));
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the other thread did not reach its step within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
