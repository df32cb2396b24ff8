package io.remus.ds.set;

import io.remus.alock.LockContext;
import io.remus.alock.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.BlockHeader;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The identity of the sets' roots ({@link LazyListSet}, {@link LockFreeListSet}, {@link LockFreeSkipListSet}):
 * attach refuses another kind's root and a block that holds no structure with a {@link WrongStructureException},
 * and a destroyed set with a {@link ClosedSetException}; of two destroys, in any handles, exactly one frees the
 * set, and the allocator serves new sets after; a destroyed handle refuses every call, and so do the other handles,
 * on the home node and off it, also once the root block holds a new set. The set lives on
 * {@link #HOME}, its handles on the other nodes (and on the home node where it says so). {@link SetIdentityOnVerbsTest} runs the same cases on the
 * verbs fabric.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SetIdentityTest {
    static final int HOME = 1;
    static final int CREATOR = 0;
    static final int OTHER = 2;

    /** The sets under test, made and destroyed as their classes do. */
    enum Kind {
        LAZY(StructureKind.LAZY_LIST_SET) {
            @Override
            RemoteSet create(ComputeThread t, Reclaimer r, int home) {
                return LazyListSet.create(new LockContext(t, SetMaker.LOCKS), r, LockKind.SPIN, home);
            }

            @Override
            RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
                return LazyListSet.attach(new LockContext(t, SetMaker.LOCKS), r, ptr);
            }

            @Override
            void destroy(RemoteSet set) {
                ((LazyListSet) set).destroy();
            }
        },
        LOCK_FREE(StructureKind.LOCK_FREE_LIST_SET) {
            @Override
            RemoteSet create(ComputeThread t, Reclaimer r, int home) {
                return LockFreeListSet.create(t, r, home);
            }

            @Override
            RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
                return LockFreeListSet.attach(t, r, ptr);
            }

            @Override
            void destroy(RemoteSet set) {
                ((LockFreeListSet) set).destroy();
            }
        },
        SKIP(StructureKind.LOCK_FREE_SKIP_LIST_SET) {
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
        };

        final StructureKind kind;

        Kind(StructureKind kind) {
            this.kind = kind;
        }

        abstract RemoteSet create(ComputeThread t, Reclaimer r, int home);

        abstract RemoteSet attach(ComputeThread t, Reclaimer r, long ptr);

        abstract void destroy(RemoteSet set);
    }

    /** {@return the fabric the cases run on: the simulator here, the verbs fabric in the twin} */
    Function<SimOptions, Fabric> fabric() {
        return SimFabric::new;
    }

    private TestCluster cluster() {
        return new TestCluster(fabric(), SimOptions.defaults(), 3, b -> b.segmentSize(1 << 20));
    }

    /** Inserts, checks and removes a few keys, so that a handle is shown to work. */
    private static void use(RemoteSet set) {
        for (long k = 1; k <= 5; k++) {
            assertTrue(set.insert(k * 10));
        }
        assertTrue(set.contains(30));
        assertTrue(set.remove(30));
        assertFalse(set.contains(30));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldRefuseToAttachWhenTheRootIsAnotherKindsStructure(Kind kind) {
        try (TestCluster c = cluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            for (Kind other : Kind.values()) {
                if (other == kind) {
                    continue;
                }
                long ptr = other.create(h, rh, HOME).ptr();
                WrongStructureException e = assertThrows(WrongStructureException.class, () -> kind.attach(t, r, ptr),
                        kind + " attached on a " + other + " root");
                assertEquals(kind.kind, e.expected());
                assertEquals(other.kind, e.found());
                assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
            }
            RemoteHashMap map = RemoteHashMap.create(h, rh, HOME, 4, 8);
            WrongStructureException e = assertThrows(WrongStructureException.class, () -> kind.attach(t, r, map.ptr()));
            assertEquals(kind.kind, e.expected());
            assertEquals(StructureKind.REMOTE_HASH_MAP, e.found());
            try (RemoteSet own = kind.attach(t, r, kind.create(h, rh, HOME).ptr())) {
                use(own);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldRefuseToAttachWhenTheBlockHoldsNoStructure(Kind kind) {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            long block = t.allocator().allocate(128, HOME);
            t.write(block, MemorySegment.ofArray(new byte[128]));
            for (long ptr : new long[] {block, RemotePtr.offset(block, 8)}) {
                WrongStructureException e = assertThrows(WrongStructureException.class, () -> kind.attach(t, r, ptr),
                        "a plain block at " + RemotePtr.toString(ptr));
                assertEquals(kind.kind, e.expected());
                assertNull(e.found(), "no structure is there");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldRefuseToAttachWhenTheSetWasDestroyedFromAnotherNode(Kind kind) {
        try (TestCluster c = cluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteSet set = kind.create(h, rh, HOME);
            use(set);
            long ptr = set.ptr();
            kind.destroy(set);
            ClosedSetException e = assertThrows(ClosedSetException.class, () -> kind.attach(t, r, ptr));
            assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldRefuseTheSecondDestroyWhenAnotherHandleDestroyedTheSetFirst(Kind kind) {
        try (TestCluster c = cluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteSet first = kind.create(h, rh, HOME);
            RemoteSet second = kind.attach(t, r, first.ptr());
            use(second);
            kind.destroy(first);
            assertThrows(ClosedSetException.class, () -> kind.destroy(second), "the set was destroyed by the first handle");
            assertThrows(ClosedSetException.class, () -> second.contains(10), "the losing handle is closed");
            assertThrows(ClosedSetException.class, () -> kind.destroy(second));
            RemoteSet a = kind.create(t, r, HOME);
            RemoteSet b = kind.create(h, rh, HOME);
            assertNotEquals(a.ptr(), b.ptr(), "the allocator hands each block out once");
            use(a);
            try (RemoteSet viaOther = kind.attach(h, rh, a.ptr())) {
                assertTrue(viaOther.contains(40));
                assertFalse(viaOther.contains(30));
            }
            use(b);
            kind.destroy(a);
            kind.destroy(b);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldLetExactlyOneDestroyWinWhenTwoHandlesRace(Kind kind) throws InterruptedException {
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread h = c.thread(HOME); NeverReclaimer rh = new NeverReclaimer(h); RemoteSet set = kind.create(h, rh, HOME)) {
                use(set);
                ptr = set.ptr();
            }
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicInteger destroyed = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            c.runOnThreads(new int[] {CREATOR, OTHER}, (i, t) -> {
                try (NeverReclaimer r = new NeverReclaimer(t)) {
                    RemoteSet set = kind.attach(t, r, ptr);
                    start.await(30, TimeUnit.SECONDS);
                    try {
                        kind.destroy(set);
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
                assertThrows(ClosedSetException.class, () -> kind.attach(t, r, ptr));
                RemoteSet fresh = kind.create(t, r, HOME);
                use(fresh);
                kind.destroy(fresh);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldRefuseEveryCallOnTheDestroyingHandleWhenDestroyed(Kind kind) {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteSet set = kind.attach(t, r, kind.create(t, r, HOME).ptr());
            use(set);
            kind.destroy(set);
            assertThrows(ClosedSetException.class, () -> set.insert(70));
            assertThrows(ClosedSetException.class, () -> set.remove(10));
            assertThrows(ClosedSetException.class, () -> set.contains(10));
            assertThrows(ClosedSetException.class, () -> kind.destroy(set));
            set.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldRefuseEveryCallOfAnotherHandleAndKeepTheSetUntilItsLastHandleCloses(Kind kind) {
        try (TestCluster c = cluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t);
             ComputeThread home = c.thread(HOME); NeverReclaimer rHome = new NeverReclaimer(home)) {
            RemoteSet set = kind.create(h, rh, HOME);
            long ptr = set.ptr();
            long headerAt = BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES));
            long header = h.read(headerAt);
            RemoteSet remote = kind.attach(t, r, ptr);
            RemoteSet local = kind.attach(home, rHome, ptr);
            use(remote);
            assertTrue(local.contains(40), "the home node's handle sees the set");
            kind.destroy(set);
            for (RemoteSet other : new RemoteSet[] {remote, local}) {
                refuseEveryCall(other, ptr);
            }
            for (int i = 0; i < 8; i++) {
                RemoteSet fresh = kind.create(h, rh, HOME);
                assertTrue(fresh.ptr() != ptr, "the destroyed set's root block is not handed out while handles are open");
                kind.destroy(fresh);
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
                RemoteSet fresh = kind.create(home, rHome, HOME);
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
            kind.destroy(reused);
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
