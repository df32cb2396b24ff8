package io.remus.ds.set;

import io.remus.alock.LockContext;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.ds.testing.Contention;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link RemoteSet} promises, run by one subclass per implementation ({@link LockFreeListSetTest},
 * {@link SkipListSetTest}, and {@link LazyListSetTest}'s one per lock kind): set behaviour through handles on
 * several nodes, also with threads changing disjoint keys at once; the refused sentinel keys; calls on a closed
 * handle; no RDMA operation for a contains on the home node; a next pointer to a block that is no node, or outside
 * every segment, is a {@link CorruptedMemoryException} naming the set; an attach on a pointer that is no such set
 * is refused; a destroy frees every node and the root. And the identity of the set's root: attach refuses another
 * kind's root and a block that holds no structure with a {@link WrongStructureException}, and a destroyed set with
 * a {@link ClosedSetException}; of two destroys, in any handles, exactly one frees the set, and the allocator serves
 * new sets after; a destroyed handle refuses every call, and so do the other handles, on the home node and off it,
 * also once the root block holds a new set.
 *
 * <p>The set lives on {@link #HOME}, its handles on the other nodes (and on the home node where it says so). The
 * identity cases run on {@link #fabric()}: the verbs twins run those on the verbs fabric, and leave the others to
 * the simulator.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class RemoteSetContractTest {
    static final int HOME = SetHistories.HOME;
    /** A node that is not the home node: every access to the set is an RDMA operation. */
    static final int REMOTE = 0;
    static final int CREATOR = 0;
    static final int OTHER = 2;

    /** The kinds of set roots, for attaches on another kind's root. */
    static final List<StructureKind> SET_KINDS = List.of(StructureKind.LAZY_LIST_SET, StructureKind.LOCK_FREE_LIST_SET,
            StructureKind.LOCK_FREE_SKIP_LIST_SET);

    // ------------------------------------------------------------------------------------ how to make the set

    /** The kind the set's root names. */
    abstract StructureKind kind();

    /** The set as the behaviour cases make it: created by one thread, attached by the others. */
    abstract SetMaker maker();

    /** The set the corrupted-pointer cases walk: {@link #maker()} unless the set has levels above level 0. */
    SetMaker walkingMaker() {
        return maker();
    }

    /** The offset of the level-0 {@code next} word in a node of {@link #walkingMaker()}'s set. */
    abstract long nextOffset();

    /** Creates a set on {@code home} for the identity cases, and answers the creator's handle. */
    abstract RemoteSet create(ComputeThread t, Reclaimer r, int home);

    /** @return a handle of {@code t} on the set at {@code ptr} */
    abstract RemoteSet attach(ComputeThread t, Reclaimer r, long ptr);

    /** Destroys the set through {@code set}. */
    abstract void destroy(RemoteSet set);

    /** {@return the fabric the identity cases run on: the simulator here, the verbs fabric in the twins} */
    Function<SimOptions, Fabric> fabric() {
        return SimFabric::new;
    }

    /** A set of {@code kind} on {@code home} as the identity cases make it (the lazy list with spin locks). */
    static RemoteSet createOf(StructureKind kind, ComputeThread t, Reclaimer r, int home) {
        return switch (kind) {
            case LAZY_LIST_SET -> LazyListSet.create(new LockContext(t, SetMaker.LOCKS), r, LockKind.SPIN, home);
            case LOCK_FREE_LIST_SET -> LockFreeListSet.create(t, r, home);
            case LOCK_FREE_SKIP_LIST_SET -> LockFreeSkipListSet.create(t, r, home, 4);
            default -> throw new IllegalArgumentException("no set: " + kind);
        };
    }

    /** The root of a set of {@code kind} on {@code home} as the behaviour cases make it, the creator's handle closed. */
    static long rootOf(StructureKind kind, ComputeThread t, Reclaimer r, int home) {
        SetMaker maker = switch (kind) {
            case LAZY_LIST_SET -> SetMaker.lazy(LockKind.SPIN);
            case LOCK_FREE_LIST_SET -> SetMaker.lockFree();
            case LOCK_FREE_SKIP_LIST_SET -> SetMaker.skipList();
            default -> throw new IllegalArgumentException("no set: " + kind);
        };
        return maker.create(t, r, home);
    }

    static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> b.segmentSize(4 << 20));
    }

    private TestCluster identityCluster() {
        return new TestCluster(fabric(), SimOptions.defaults(), 3, b -> b.segmentSize(1 << 20));
    }

    // ------------------------------------------------------------------------------------ set behaviour

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldAnswerAsASetWhenHandlesOnSeveralNodesTakeTurns() {
        SetMaker maker = maker();
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

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRefuseTheSentinelKeysNamingThemWhenAnyOperationGetsOne() {
        SetMaker maker = maker();
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

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRefuseEveryCallWhenTheHandleIsClosed() {
        SetMaker maker = maker();
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
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldPostNothingWhenContainsRunsOnTheHomeNode() {
        SetMaker maker = maker();
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
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldKeepEveryThreadsKeysWhenThreadsInsertAndRemoveDisjointKeysAtOnce() throws InterruptedException {
        SetMaker maker = maker();
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

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldThrowCorruptedMemoryExceptionWhenANextPointerPastTheFirstNodeLeadsToABlockThatIsNoNode() {
        SetMaker maker = walkingMaker();
        long nextOffset = nextOffset();
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
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldThrowCorruptedMemoryExceptionWhenANextPointerPastTheFirstNodePointsOutsideEverySegment() {
        SetMaker maker = walkingMaker();
        long nextOffset = nextOffset();
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

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRefuseToAttachWhenThePointerIsNoSuchSet() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t)) {
            for (StructureKind other : SET_KINDS) {
                long root = rootOf(other, t, r, HOME);
                if (other != kind()) {
                    assertThrows(BadArgumentException.class, () -> attach(t, r, root), "a " + other + " root");
                }
                assertThrows(BadArgumentException.class, () -> attach(t, r, root + 4), "inside a " + other + " root");
            }
            assertThrows(BadArgumentException.class, () -> attach(t, r, 0L));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldFreeEveryNodeAndTheRootWhenDestroyed() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults().withPoisonFreedBlocks(true), 3, b -> { });
             ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteSet set = attach(t, r, maker().create(t, r, HOME));
            for (long k = 1; k <= 5; k++) {
                assertTrue(set.insert(k));
            }
            assertTrue(set.remove(3));
            destroy(set);
            assertThrows(ClosedSetException.class, () -> set.contains(1), "a destroyed set's handle is closed");
            assertThrows(BadArgumentException.class, () -> attach(t, r, set.ptr()), "the root was freed (poisoned)");
        }
    }

    // ------------------------------------------------------------------------------------ the root's identity

    /** Inserts, checks and removes a few keys, so that a handle is shown to work. */
    private static void use(RemoteSet set) {
        for (long k = 1; k <= 5; k++) {
            assertTrue(set.insert(k * 10));
        }
        assertTrue(set.contains(30));
        assertTrue(set.remove(30));
        assertFalse(set.contains(30));
    }

    @Test
    void shouldRefuseToAttachWhenTheRootIsAnotherKindsStructure() {
        try (TestCluster c = identityCluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            for (StructureKind other : SET_KINDS) {
                if (other == kind()) {
                    continue;
                }
                long ptr = createOf(other, h, rh, HOME).ptr();
                WrongStructureException e = assertThrows(WrongStructureException.class, () -> attach(t, r, ptr),
                        kind() + " attached on a " + other + " root");
                assertEquals(kind(), e.expected());
                assertEquals(other, e.found());
                assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
            }
            RemoteHashMap map = RemoteHashMap.create(h, rh, HOME, 4, 8);
            WrongStructureException e = assertThrows(WrongStructureException.class, () -> attach(t, r, map.ptr()));
            assertEquals(kind(), e.expected());
            assertEquals(StructureKind.REMOTE_HASH_MAP, e.found());
            try (RemoteSet own = attach(t, r, create(h, rh, HOME).ptr())) {
                use(own);
            }
        }
    }

    @Test
    void shouldRefuseToAttachWhenTheBlockHoldsNoStructure() {
        try (TestCluster c = identityCluster(); ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            long block = t.allocator().allocate(128, HOME);
            t.write(block, MemorySegment.ofArray(new byte[128]));
            for (long ptr : new long[] {block, RemotePtr.offset(block, 8)}) {
                WrongStructureException e = assertThrows(WrongStructureException.class, () -> attach(t, r, ptr),
                        "a plain block at " + RemotePtr.toString(ptr));
                assertEquals(kind(), e.expected());
                assertNull(e.found(), "no structure is there");
            }
        }
    }

    @Test
    void shouldRefuseToAttachWhenTheSetWasDestroyedFromAnotherNode() {
        try (TestCluster c = identityCluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteSet set = create(h, rh, HOME);
            use(set);
            long ptr = set.ptr();
            destroy(set);
            ClosedSetException e = assertThrows(ClosedSetException.class, () -> attach(t, r, ptr));
            assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
        }
    }

    @Test
    void shouldRefuseTheSecondDestroyWhenAnotherHandleDestroyedTheSetFirst() {
        try (TestCluster c = identityCluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteSet first = create(h, rh, HOME);
            RemoteSet second = attach(t, r, first.ptr());
            use(second);
            destroy(first);
            assertThrows(ClosedSetException.class, () -> destroy(second), "the set was destroyed by the first handle");
            assertThrows(ClosedSetException.class, () -> second.contains(10), "the losing handle is closed");
            assertThrows(ClosedSetException.class, () -> destroy(second));
            RemoteSet a = create(t, r, HOME);
            RemoteSet b = create(h, rh, HOME);
            assertNotEquals(a.ptr(), b.ptr(), "the allocator hands each block out once");
            use(a);
            try (RemoteSet viaOther = attach(h, rh, a.ptr())) {
                assertTrue(viaOther.contains(40));
                assertFalse(viaOther.contains(30));
            }
            use(b);
            destroy(a);
            destroy(b);
        }
    }

    @Test
    void shouldLetExactlyOneDestroyWinWhenTwoHandlesRace() throws InterruptedException {
        try (TestCluster c = identityCluster()) {
            long ptr;
            try (ComputeThread h = c.thread(HOME); NeverReclaimer rh = new NeverReclaimer(h); RemoteSet set = create(h, rh, HOME)) {
                use(set);
                ptr = set.ptr();
            }
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicInteger destroyed = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            c.runOnThreads(new int[] {CREATOR, OTHER}, (i, t) -> {
                try (NeverReclaimer r = new NeverReclaimer(t)) {
                    RemoteSet set = attach(t, r, ptr);
                    start.await(30, TimeUnit.SECONDS);
                    try {
                        destroy(set);
                        destroyed.incrementAndGet();
                    } catch (ClosedSetException e) {
                        refused.incrementAndGet();
                    }
                    assertThrows(ClosedSetException.class, () -> set.insert(1));
                }
            });
            assertEquals(1, destroyed.get(), "exactly one destroy frees the set");
            assertEquals(1, refused.get(), "the other gets the closed exception");
            try (ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
                assertThrows(ClosedSetException.class, () -> attach(t, r, ptr));
                RemoteSet fresh = create(t, r, HOME);
                use(fresh);
                destroy(fresh);
            }
        }
    }

    @Test
    void shouldRefuseEveryCallOnTheDestroyingHandleWhenDestroyed() {
        try (TestCluster c = identityCluster(); ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteSet set = attach(t, r, create(t, r, HOME).ptr());
            use(set);
            destroy(set);
            assertThrows(ClosedSetException.class, () -> set.insert(70));
            assertThrows(ClosedSetException.class, () -> set.remove(10));
            assertThrows(ClosedSetException.class, () -> set.contains(10));
            assertThrows(ClosedSetException.class, () -> destroy(set));
            set.close();
        }
    }

    @Test
    void shouldRefuseEveryCallOfAnotherHandleAndKeepTheSetUntilItsLastHandleCloses() {
        try (TestCluster c = identityCluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t);
             ComputeThread home = c.thread(HOME); NeverReclaimer rHome = new NeverReclaimer(home)) {
            RemoteSet set = create(h, rh, HOME);
            long ptr = set.ptr();
            long headerAt = BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES));
            long header = h.read(headerAt);
            RemoteSet remote = attach(t, r, ptr);
            RemoteSet local = attach(home, rHome, ptr);
            use(remote);
            assertTrue(local.contains(40), "the home node's handle sees the set");
            destroy(set);
            for (RemoteSet other : new RemoteSet[] {remote, local}) {
                refuseEveryCall(other, ptr);
            }
            for (int i = 0; i < 8; i++) {
                RemoteSet fresh = create(h, rh, HOME);
                assertTrue(fresh.ptr() != ptr, "the destroyed set's root block is not handed out while handles are open");
                destroy(fresh);
            }
            assertEquals(header, h.read(headerAt), "two handles are open: the root block stays allocated");
            remote.close();
            assertEquals(header, h.read(headerAt), "one handle is open: the root block stays allocated");
            refuseEveryCall(local, ptr);
            local.close();
            assertEquals(BlockHeader.FREE, BlockHeader.state(h.read(headerAt)), "the last close freed the set");
            local.close();
            RemoteSet reused = null;
            for (int i = 0; i < 64 && reused == null; i++) {
                RemoteSet fresh = create(home, rHome, HOME);
                reused = fresh.ptr() == ptr ? fresh : null;
            }
            assertTrue(reused != null, "the last closer's allocator hands the freed root block out again");
            for (long k = 10; k <= 50; k += 10) {
                reused.insert(k);
            }
            for (RemoteSet other : new RemoteSet[] {remote, local}) {
                refuseEveryCall(other, ptr);
            }
            assertTrue(reused.contains(30) && reused.contains(40), "the new set is untouched");
            destroy(reused);
        }
    }

    /** Every call of a handle on the destroyed set at {@code ptr} throws {@link ClosedSetException}, naming the set. */
    private static void refuseEveryCall(RemoteSet set, long ptr) {
        ClosedSetException e = assertThrows(ClosedSetException.class, () -> set.contains(40), "contains of a key it held");
        assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
        assertThrows(ClosedSetException.class, () -> set.contains(35), "contains of a key it did not hold");
        assertThrows(ClosedSetException.class, () -> set.insert(40), "insert of a key it held");
        assertThrows(ClosedSetException.class, () -> set.insert(35), "insert of a key it did not hold");
        assertThrows(ClosedSetException.class, () -> set.remove(40), "remove of a key it held");
        assertThrows(ClosedSetException.class, () -> set.remove(35), "remove of a key it did not hold");
    }
}
