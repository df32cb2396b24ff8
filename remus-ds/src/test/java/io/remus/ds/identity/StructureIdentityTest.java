package io.remus.ds.identity;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A root's identity: attach accepts only a live structure of the expected kind and layout version, names what is
 * there otherwise, and tells a destroyed structure apart; a destroy frees one life of the root block once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StructureIdentityTest {
    /** The closed exception of a made-up family. */
    static final class Gone extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Gone(String message) {
            super(message);
        }
    }

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    private static MemorySegment root(long... words) {
        return MemorySegment.ofArray(words);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldAttachFromAnyNodeToALiveStructureAndCopyItsRoot(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(1); ComputeThread other = c.thread(0)) {
            for (int node : new int[] {1, 2}) {
                StructureIdentity id = StructureIdentity.allocate(creator, StructureKind.MPMC_SCQ_QUEUE, 24, node, Gone::new);
                creator.write(id.ptr(), 41);
                creator.write(RemotePtr.offset(id.ptr(), 8), 42);
                MemorySegment copy = root(0, 0);
                StructureIdentity seen = StructureIdentity.attach(other, StructureKind.MPMC_SCQ_QUEUE, id.ptr(), copy, Gone::new);
                assertEquals(id.ptr(), seen.ptr());
                assertEquals(node, RemotePtr.node(seen.ptr()));
                assertEquals(id.blockHeader(), seen.blockHeader());
                assertEquals(BlockHeader.ALLOCATED, BlockHeader.state(seen.blockHeader()));
                assertEquals(41, copy.getAtIndex(ValueLayout.JAVA_LONG, 0));
                assertEquals(42, copy.getAtIndex(ValueLayout.JAVA_LONG, 1));
                seen.checkLive(other);
                id.checkLive(creator);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldNameBothKindsWhenTheRootIsAnotherKinds(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            StructureIdentity id = StructureIdentity.allocate(t, StructureKind.WAIT_FREE_STACK, 16, 1, Gone::new);
            WrongStructureException e = assertThrows(WrongStructureException.class,
                    () -> StructureIdentity.attach(t, StructureKind.WAIT_FREE_QUEUE, id.ptr(), root(), Gone::new));
            assertEquals(StructureKind.WAIT_FREE_QUEUE, e.expected());
            assertEquals(StructureKind.WAIT_FREE_STACK, e.found());
            assertTrue(e.getMessage().contains("WaitFreeQueue") && e.getMessage().contains("WaitFreeStack"), e.getMessage());
            assertTrue(e.getMessage().contains(RemotePtr.toString(id.ptr())), e.getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAPointerThatIsNoStructuresRoot(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long plain = t.allocator().allocate(64, 1);
            t.write(plain, 7);
            for (long p : new long[] {plain, RemotePtr.offset(plain, 8), RemotePtr.offset(plain, 16)}) {
                WrongStructureException e = assertThrows(WrongStructureException.class,
                        () -> StructureIdentity.attach(t, StructureKind.REMOTE_HASH_MAP, p, root(), Gone::new), RemotePtr.toString(p));
                assertNull(e.found());
                assertEquals(StructureKind.REMOTE_HASH_MAP, e.expected());
            }
            assertThrows(BadArgumentException.class,
                    () -> StructureIdentity.attach(t, StructureKind.REMOTE_HASH_MAP, RemotePtr.NULL, root(), Gone::new));
            assertThrows(BadArgumentException.class,
                    () -> StructureIdentity.attach(t, StructureKind.REMOTE_HASH_MAP, RemotePtr.offset(plain, 4), root(), Gone::new));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseALayoutVersionItDoesNotRead(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            StructureIdentity id = StructureIdentity.allocate(t, StructureKind.REMOTE_COUNTER, 8, 1, Gone::new);
            long identity = t.read(RemotePtr.offset(id.ptr(), -8));
            t.write(RemotePtr.offset(id.ptr(), -8), identity + (1L << 32));
            WrongStructureException e = assertThrows(WrongStructureException.class,
                    () -> StructureIdentity.attach(t, StructureKind.REMOTE_COUNTER, id.ptr(), root(), Gone::new));
            assertEquals(StructureKind.REMOTE_COUNTER, e.found());
            assertTrue(e.getMessage().contains("version 2"), e.getMessage());
        }
    }

    /** The handles word's count of open handles and its destroyed bit. */
    private static long handles(ComputeThread t, StructureIdentity id) {
        return t.read(id.headerAddress()) & 0xFFFF_FFFFL;
    }

    private static final long DESTROYED = 1L << 31;

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepADestroyedStructuresMemoryUntilItsLastHandleCloses(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); ComputeThread b = c.thread(2);
             ComputeThread d = c.thread(1)) {
            StructureIdentity mine = StructureIdentity.allocate(a, StructureKind.LOCK_FREE_LIST_SET, 40, 1, Gone::new);
            StructureIdentity theirs = StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, mine.ptr(), root(), Gone::new);
            StructureIdentity third = StructureIdentity.attach(d, StructureKind.LOCK_FREE_LIST_SET, mine.ptr(), root(), Gone::new);
            assertEquals(3, handles(a, mine));
            int[] freed = new int[1];
            theirs.requireOpen();
            mine.destroy(a, 40, () -> freed[0]++);
            assertTrue(mine.isClosed());
            Gone closed = assertThrows(Gone.class, mine::requireOpen, "the destroying handle is closed");
            assertTrue(closed.getMessage().contains("is closed"), closed.getMessage());
            theirs.requireOpen();
            assertEquals(0, freed[0], "two handles are still open");
            assertEquals(DESTROYED | 2, handles(a, mine));
            long header = a.read(BlockHeader.address(RemotePtr.offset(mine.ptr(), -StructureIdentity.BYTES)));
            assertEquals(BlockHeader.ALLOCATED, BlockHeader.state(header), "the root block stays allocated");
            assertThrows(Gone.class, () -> theirs.checkLive(b));
            assertThrows(Gone.class, () -> theirs.check(b.read(theirs.headerAddress())));
            assertThrows(Gone.class,
                    () -> StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, mine.ptr(), root(), Gone::new));
            assertEquals(DESTROYED | 2, handles(a, mine), "a refused attach counts no handle");
            Gone twice = assertThrows(Gone.class, () -> theirs.destroy(b, 40, () -> freed[0]++));
            assertTrue(twice.getMessage().contains("destroyed by another handle"), twice.getMessage());
            assertTrue(theirs.isClosed(), "a refused destroy closes the handle");
            assertThrows(Gone.class, theirs::requireOpen, "a refused destroy closes the handle");
            assertThrows(Gone.class, () -> theirs.destroy(b, 40, () -> freed[0]++), "a closed handle destroys nothing");
            assertEquals(DESTROYED | 1, handles(a, mine), "and drops no handle again");
            assertEquals(0, freed[0]);
            assertEquals(DESTROYED | 1, handles(a, mine));
            third.close(d, 40, () -> freed[0]++);
            assertEquals(1, freed[0], "the last handle frees the structure");
            header = a.read(BlockHeader.address(RemotePtr.offset(mine.ptr(), -StructureIdentity.BYTES)));
            assertEquals(BlockHeader.FREE, BlockHeader.state(header), "and its root block");
            third.close(d, 40, () -> freed[0]++);
            theirs.close(b, 40, () -> freed[0]++);
            assertEquals(1, freed[0], "a second close does nothing");
            Gone attach = assertThrows(Gone.class,
                    () -> StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, mine.ptr(), root(), Gone::new));
            assertTrue(attach.getMessage().contains("is free"), attach.getMessage());
            assertThrows(Gone.class, () -> mine.destroy(a, 40, () -> freed[0]++));
            assertEquals(1, freed[0]);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFreeAtDestroyWhenNoOtherHandleIsOpenAndNeverAttachToTheNextLife(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); ComputeThread b = c.thread(2)) {
            StructureIdentity mine = StructureIdentity.allocate(a, StructureKind.LOCK_FREE_LIST_SET, 40, 1, Gone::new);
            StructureIdentity theirs = StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, mine.ptr(), root(), Gone::new);
            int[] freed = new int[1];
            theirs.close(b, 40, () -> freed[0]++);
            assertEquals(1, handles(a, mine), "a close of a live structure frees nothing");
            assertEquals(0, freed[0]);
            mine.destroy(a, 40, () -> freed[0]++);
            assertEquals(1, freed[0], "the only handle frees at destroy");

            // The block is reused (the same allocator's cache hands it out again) for a structure of the same kind:
            // the old handles cannot touch the new one.
            StructureIdentity next = StructureIdentity.allocate(a, StructureKind.LOCK_FREE_LIST_SET, 40, 1, Gone::new);
            assertEquals(mine.ptr(), next.ptr(), "the block was reused");
            assertThrows(Gone.class, () -> mine.check(a.read(next.headerAddress())), "another life's handles word");
            assertThrows(Gone.class, () -> mine.destroy(a, 40, () -> freed[0]++));
            mine.close(a, 40, () -> freed[0]++);
            assertEquals(1, handles(a, next), "closed handles of the old life never count into the new one");
            StructureIdentity other = StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, next.ptr(), root(), Gone::new);
            other.checkLive(b);
            assertEquals(2, handles(a, next));
            next.destroy(a, 40, () -> { });
            assertEquals(DESTROYED | 1, handles(a, next));
            assertThrows(Gone.class, () -> StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, next.ptr(), root(), Gone::new));
            other.close(b, 40, () -> { });

            // Reused as plain data that keeps the old identity word: that life is no structure's.
            long plain = b.allocator().allocate(StructureIdentity.blockBytes(40), 1);
            assertEquals(RemotePtr.offset(next.ptr(), -StructureIdentity.BYTES), plain, "the block was reused (by the"
                    + " thread whose close freed it)");
            assertThrows(Gone.class,
                    () -> StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, next.ptr(), root(), Gone::new));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLeaveTheHandlesWordAsItWasWhenTheCallersCheckRefusesTheRoot(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); ComputeThread b = c.thread(2)) {
            StructureIdentity mine = StructureIdentity.allocate(a, StructureKind.MPMC_SCQ_QUEUE, 16, 1, Gone::new);
            a.write(mine.ptr(), 99);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> StructureIdentity.attach(b,
                    StructureKind.MPMC_SCQ_QUEUE, mine.ptr(), root(0), Gone::new, copy -> {
                        throw new IllegalStateException("refused " + copy.getAtIndex(ValueLayout.JAVA_LONG, 0));
                    }));
            assertEquals("refused 99", e.getMessage());
            assertEquals(1, handles(a, mine));
            MemorySegment seen = root(0);
            StructureIdentity.inspect(b, StructureKind.MPMC_SCQ_QUEUE, mine.ptr(), seen, Gone::new);
            assertEquals(99, seen.getAtIndex(ValueLayout.JAVA_LONG, 0));
            assertEquals(1, handles(a, mine), "inspect opens no handle");
        }
    }

    /**
     * Handles open and close on several threads while one destroys: the structure is freed exactly once, by
     * whichever handle is last, and never while a handle is open.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFreeExactlyOnceWhileHandlesOpenAndCloseOnOtherThreads(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0)) {
            StructureIdentity mine = StructureIdentity.allocate(a, StructureKind.WAIT_FREE_QUEUE, 24, 1, Gone::new);
            java.util.concurrent.atomic.AtomicInteger freed = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger open = new java.util.concurrent.atomic.AtomicInteger(1);
            java.util.concurrent.atomic.AtomicInteger wrongFree = new java.util.concurrent.atomic.AtomicInteger();
            Runnable free = () -> {
                if (open.get() != 0) {
                    wrongFree.incrementAndGet();
                }
                freed.incrementAndGet();
            };
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.List<Thread> threads = new java.util.ArrayList<>();
            java.util.List<Throwable> failures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            int[] refused = new int[3];
            for (int i = 0; i < 3; i++) {
                int index = i;
                Thread t = new Thread(() -> {
                    try (ComputeThread ct = c.thread(index % 3)) {
                        go.await();
                        for (int round = 0; round < 150; round++) {
                            StructureIdentity h;
                            try {
                                h = StructureIdentity.attach(ct, StructureKind.WAIT_FREE_QUEUE, mine.ptr(), root(), Gone::new);
                            } catch (Gone | WrongStructureException e) {
                                refused[index]++;
                                continue;
                            }
                            open.incrementAndGet();
                            try {
                                h.check(ct.read(h.headerAddress()));
                            } catch (Gone e) {
                                // destroyed meanwhile: still ours to close
                            }
                            open.decrementAndGet();
                            h.close(ct, 24, free);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                threads.add(t);
                t.start();
            }
            go.countDown();
            Thread.sleep(20);
            open.decrementAndGet();
            mine.destroy(a, 24, free);
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(failures.isEmpty(), failures.toString());
            assertEquals(1, freed.get(), "freed exactly once");
            assertEquals(0, wrongFree.get(), "never while a handle was open");
        }
    }
}
