package io.remus.ds.map;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.set.LazyListSet;
import io.remus.ds.set.LockFreeListSet;
import io.remus.ds.set.LockFreeSkipListSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The identity of {@link RemoteHashMap}'s root (and so {@link TypedRemoteHashMap}'s): attach refuses a set's root
 * and a block that holds no structure with a {@link WrongStructureException}, and a destroyed map with a
 * {@link ClosedMapException}; of two destroys, in any handles, exactly one frees the map, and the allocator
 * serves new maps after; a destroyed or closed handle refuses every call with {@link ClosedMapException}, and so
 * do the other handles of a destroyed map, on its home node and off it, also once its root block holds a new map. The
 * map lives on {@link #HOME}, its handles on the other nodes (and on the home node where it says so). {@link MapIdentityOnVerbsTest} runs the same
 * cases on the verbs fabric.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MapIdentityTest {
    static final int HOME = 1;
    static final int CREATOR = 0;
    static final int OTHER = 2;
    private static final int BUCKETS = 16;
    private static final int MAX_VALUE = 64;

    /** {@return the fabric the cases run on: the simulator here, the verbs fabric in the twin} */
    Function<SimOptions, Fabric> fabric() {
        return SimFabric::new;
    }

    private TestCluster cluster() {
        return new TestCluster(fabric(), SimOptions.defaults(), 3, b -> b.segmentSize(1 << 20));
    }

    private static byte[] value(long key) {
        byte[] v = new byte[16];
        for (int i = 0; i < v.length; i++) {
            v[i] = (byte) (key * 7 + i);
        }
        return v;
    }

    /** Puts, reads and removes a few keys, so that a handle is shown to work. */
    private static void use(RemoteHashMap map) {
        for (long k = 1; k <= 5; k++) {
            assertTrue(map.put(k, value(k)));
        }
        assertArrayEquals(value(3), map.get(3));
        assertTrue(map.remove(3));
        assertNull(map.get(3));
    }

    @Test
    void shouldRefuseToAttachWhenTheRootIsASetsRoot() {
        try (TestCluster c = cluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            Map<StructureKind, Long> sets = Map.of(
                    StructureKind.LOCK_FREE_LIST_SET, LockFreeListSet.create(h, rh, HOME).ptr(),
                    StructureKind.LOCK_FREE_SKIP_LIST_SET, LockFreeSkipListSet.create(h, rh, HOME).ptr(),
                    StructureKind.LAZY_LIST_SET,
                    LazyListSet.create(new LockContext(h, LockOptions.defaults()), rh, LockKind.SPIN, HOME).ptr());
            for (Map.Entry<StructureKind, Long> set : sets.entrySet()) {
                long ptr = set.getValue();
                WrongStructureException e = assertThrows(WrongStructureException.class, () -> RemoteHashMap.attach(t, r, ptr),
                        "a map attached on a " + set.getKey() + " root");
                assertEquals(StructureKind.REMOTE_HASH_MAP, e.expected());
                assertEquals(set.getKey(), e.found());
                assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
                WrongStructureException typed = assertThrows(WrongStructureException.class,
                        () -> TypedRemoteHashMap.attach(t, r, ptr, Codec.LONG, Codec.UTF8));
                assertEquals(StructureKind.REMOTE_HASH_MAP, typed.expected());
                assertEquals(set.getKey(), typed.found());
            }
            RemoteHashMap own = RemoteHashMap.attach(t, r, RemoteHashMap.create(h, rh, HOME, BUCKETS, MAX_VALUE).ptr());
            use(own);
        }
    }

    @Test
    void shouldRefuseToAttachWhenTheBlockHoldsNoStructure() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            long block = t.allocator().allocate(128, HOME);
            t.write(block, MemorySegment.ofArray(new byte[128]));
            for (long ptr : new long[] {block, RemotePtr.offset(block, 8)}) {
                WrongStructureException e = assertThrows(WrongStructureException.class, () -> RemoteHashMap.attach(t, r, ptr),
                        "a plain block at " + RemotePtr.toString(ptr));
                assertEquals(StructureKind.REMOTE_HASH_MAP, e.expected());
                assertNull(e.found(), "no structure is there");
                assertThrows(WrongStructureException.class, () -> TypedRemoteHashMap.attach(t, r, ptr, Codec.LONG, Codec.UTF8));
            }
        }
    }

    @Test
    void shouldRefuseToAttachWhenTheMapWasDestroyedFromAnotherNode() {
        try (TestCluster c = cluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(h, rh, HOME, BUCKETS, MAX_VALUE);
            use(map);
            long ptr = map.ptr();
            map.destroy();
            ClosedMapException e = assertThrows(ClosedMapException.class, () -> RemoteHashMap.attach(t, r, ptr));
            assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
            assertThrows(ClosedMapException.class, () -> TypedRemoteHashMap.attach(t, r, ptr, Codec.LONG, Codec.UTF8));
        }
    }

    @Test
    void shouldRefuseTheSecondDestroyWhenAnotherHandleDestroyedTheMapFirst() {
        try (TestCluster c = cluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap first = RemoteHashMap.create(h, rh, HOME, BUCKETS, MAX_VALUE);
            RemoteHashMap second = RemoteHashMap.attach(t, r, first.ptr());
            use(second);
            first.destroy();
            assertThrows(ClosedMapException.class, second::destroy, "the map was destroyed by the first handle");
            assertThrows(ClosedMapException.class, () -> second.get(1), "the losing handle is closed");
            assertThrows(ClosedMapException.class, second::destroy);
            RemoteHashMap a = RemoteHashMap.create(t, r, HOME, BUCKETS, MAX_VALUE);
            RemoteHashMap b = RemoteHashMap.create(h, rh, HOME, BUCKETS, MAX_VALUE);
            assertNotEquals(a.ptr(), b.ptr(), "the allocator hands each block out once");
            use(a);
            RemoteHashMap viaOther = RemoteHashMap.attach(h, rh, a.ptr());
            assertArrayEquals(value(4), viaOther.get(4));
            assertFalse(viaOther.containsKey(3));
            use(b);
            a.destroy();
            b.destroy();
        }
    }

    @Test
    void shouldLetExactlyOneDestroyWinWhenTwoHandlesRace() throws InterruptedException {
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread h = c.thread(HOME); NeverReclaimer rh = new NeverReclaimer(h)) {
                RemoteHashMap map = RemoteHashMap.create(h, rh, HOME, BUCKETS, MAX_VALUE);
                use(map);
                ptr = map.ptr();
                map.close();
            }
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicInteger destroyed = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            c.runOnThreads(new int[] {CREATOR, OTHER}, (i, t) -> {
                try (NeverReclaimer r = new NeverReclaimer(t)) {
                    RemoteHashMap map = RemoteHashMap.attach(t, r, ptr);
                    start.await(30, TimeUnit.SECONDS);
                    try {
                        map.destroy();
                        destroyed.incrementAndGet();
                    } catch (ClosedMapException e) {
                        refused.incrementAndGet();
                    }
                    assertThrows(ClosedMapException.class, () -> map.put(1, value(1)));
                }
            });
            assertEquals(1, destroyed.get(), "exactly one destroy frees the map");
            assertEquals(1, refused.get(), "the other gets the closed exception");
            try (ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
                assertThrows(ClosedMapException.class, () -> RemoteHashMap.attach(t, r, ptr));
                RemoteHashMap fresh = RemoteHashMap.create(t, r, HOME, BUCKETS, MAX_VALUE);
                use(fresh);
                fresh.destroy();
            }
        }
    }

    @Test
    void shouldRefuseEveryCallOnTheDestroyingHandleWhenDestroyed() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.attach(t, r, RemoteHashMap.create(t, r, HOME, BUCKETS, MAX_VALUE).ptr());
            TypedRemoteHashMap<Long, String> typed = TypedRemoteHashMap.of(map, Codec.LONG, Codec.UTF8);
            use(map);
            map.destroy();
            assertThrows(ClosedMapException.class, () -> map.get(1));
            assertThrows(ClosedMapException.class, () -> map.get(1, MemorySegment.ofArray(new byte[MAX_VALUE])));
            assertThrows(ClosedMapException.class, () -> map.get(new byte[] {1}));
            assertThrows(ClosedMapException.class, () -> map.containsKey(1));
            assertThrows(ClosedMapException.class, () -> map.put(9, value(9)));
            assertThrows(ClosedMapException.class, () -> map.put(new byte[] {9}, value(9)));
            assertThrows(ClosedMapException.class, () -> map.remove(1));
            assertThrows(ClosedMapException.class, map::destroy);
            assertThrows(ClosedMapException.class, () -> typed.get(1L));
            assertThrows(ClosedMapException.class, () -> typed.put(1L, "one"));
            assertThrows(ClosedMapException.class, () -> typed.remove(1L));
            map.close();
        }
    }

    @Test
    void shouldRefuseEveryCallWhenTheHandleIsClosed() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t)) {
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, BUCKETS, MAX_VALUE);
            use(map);
            map.close();
            ClosedMapException e = assertThrows(ClosedMapException.class, () -> map.get(1));
            assertTrue(e.getMessage().contains(RemotePtr.toString(map.ptr())), e.getMessage());
            assertThrows(ClosedMapException.class, () -> map.put(1, value(1)));
            assertThrows(ClosedMapException.class, map::destroy);
            RemoteHashMap other = RemoteHashMap.attach(t, r, map.ptr());
            assertArrayEquals(value(1), other.get(1), "closing a handle leaves the map");
        }
    }

    @Test
    void shouldRefuseEveryCallOfAnotherHandleAndKeepTheMapUntilItsLastHandleCloses() {
        try (TestCluster c = cluster(); ComputeThread h = c.thread(CREATOR); NeverReclaimer rh = new NeverReclaimer(h);
             ComputeThread t = c.thread(OTHER); NeverReclaimer r = new NeverReclaimer(t);
             ComputeThread home = c.thread(HOME); NeverReclaimer rHome = new NeverReclaimer(home)) {
            RemoteHashMap map = RemoteHashMap.create(h, rh, HOME, BUCKETS, MAX_VALUE);
            long ptr = map.ptr();
            long headerAt = BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES));
            long header = h.read(headerAt);
            RemoteHashMap remote = RemoteHashMap.attach(t, r, ptr);
            RemoteHashMap local = RemoteHashMap.attach(home, rHome, ptr);
            use(remote);
            assertArrayEquals(value(4), local.get(4), "the home node's handle sees the map");
            map.destroy();
            for (RemoteHashMap other : new RemoteHashMap[] {remote, local}) {
                refuseEveryCall(other, ptr);
            }
            for (int i = 0; i < 8; i++) {
                RemoteHashMap fresh = RemoteHashMap.create(h, rh, HOME, BUCKETS, MAX_VALUE);
                assertTrue(fresh.ptr() != ptr, "the destroyed map's root block is not handed out while handles are open");
                fresh.destroy();
            }
            assertEquals(header, h.read(headerAt), "two handles are open: the root block stays allocated");
            remote.close();
            assertEquals(header, h.read(headerAt), "one handle is open: the root block stays allocated");
            local.close();
            assertEquals(BlockHeader.FREE, BlockHeader.state(h.read(headerAt)), "the last close freed the map");
            RemoteHashMap reused = null;
            for (int i = 0; i < 64 && reused == null; i++) {
                RemoteHashMap fresh = RemoteHashMap.create(home, rHome, HOME, BUCKETS, MAX_VALUE);
                reused = fresh.ptr() == ptr ? fresh : null;
            }
            assertTrue(reused != null, "the last closer's allocator hands the freed root block out again");
            for (long k = 1; k <= 5; k++) {
                assertTrue(reused.put(k, value(k + 100)));
            }
            for (long k = 1; k <= 5; k++) {
                assertArrayEquals(value(k + 100), reused.get(k), "the new map is untouched");
            }
            assertNull(reused.get(9));
            reused.destroy();
        }
    }

    /** Every call of a handle on the destroyed map at {@code ptr} throws {@link ClosedMapException}, naming the map. */
    private static void refuseEveryCall(RemoteHashMap map, long ptr) {
        TypedRemoteHashMap<Long, String> typed = TypedRemoteHashMap.of(map, Codec.LONG, Codec.UTF8);
        byte[] key4 = MemorySegment.ofArray(new long[] {4}).toArray(ValueLayout.JAVA_BYTE);
        ClosedMapException e = assertThrows(ClosedMapException.class, () -> map.get(4), "get of a key it held");
        assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
        assertThrows(ClosedMapException.class, () -> map.get(9), "get of a key it did not hold");
        assertThrows(ClosedMapException.class, () -> map.get(4, MemorySegment.ofArray(new byte[MAX_VALUE])));
        assertThrows(ClosedMapException.class, () -> map.get(MemorySegment.ofArray(key4), MemorySegment.ofArray(new byte[MAX_VALUE])));
        assertThrows(ClosedMapException.class, () -> map.get(key4));
        assertThrows(ClosedMapException.class, () -> map.containsKey(4));
        assertThrows(ClosedMapException.class, () -> map.containsKey(key4));
        assertThrows(ClosedMapException.class, () -> map.containsKey(MemorySegment.ofArray(key4)));
        assertThrows(ClosedMapException.class, () -> map.put(4, value(4)), "put of a key it held");
        assertThrows(ClosedMapException.class, () -> map.put(9, value(9)), "put of a key it did not hold");
        assertThrows(ClosedMapException.class, () -> map.put(4, MemorySegment.ofArray(value(4))));
        assertThrows(ClosedMapException.class, () -> map.put(key4, value(4)));
        assertThrows(ClosedMapException.class, () -> map.put(MemorySegment.ofArray(key4), MemorySegment.ofArray(value(4))));
        assertThrows(ClosedMapException.class, () -> map.remove(4), "remove of a key it held");
        assertThrows(ClosedMapException.class, () -> map.remove(9), "remove of a key it did not hold");
        assertThrows(ClosedMapException.class, () -> map.remove(key4));
        assertThrows(ClosedMapException.class, () -> map.remove(MemorySegment.ofArray(key4)));
        assertThrows(ClosedMapException.class, () -> typed.get(4L));
        assertThrows(ClosedMapException.class, () -> typed.containsKey(4L));
        assertThrows(ClosedMapException.class, () -> typed.put(4L, "four"));
        assertThrows(ClosedMapException.class, () -> typed.remove(4L));
    }
}
