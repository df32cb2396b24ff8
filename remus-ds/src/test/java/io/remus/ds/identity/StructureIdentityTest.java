package io.remus.ds.identity;

import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.BlockHeader;
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

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldTellEveryHandleOfADestroyedStructureAndFreeItsRootOnce(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); ComputeThread b = c.thread(2)) {
            StructureIdentity mine = StructureIdentity.allocate(a, StructureKind.LOCK_FREE_LIST_SET, 40, 1, Gone::new);
            StructureIdentity theirs = StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, mine.ptr(), root(), Gone::new);
            mine.destroy(a, 40);
            assertThrows(Gone.class, () -> theirs.checkLive(b));
            assertThrows(Gone.class, () -> theirs.check(b.read(theirs.headerAddress())));
            Gone twice = assertThrows(Gone.class, () -> theirs.destroy(b, 40));
            assertTrue(twice.getMessage().contains("destroyed by another handle"), twice.getMessage());
            Gone attach = assertThrows(Gone.class,
                    () -> StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, mine.ptr(), root(), Gone::new));
            assertTrue(attach.getMessage().contains("is free"), attach.getMessage());

            // The block is reused (the same allocator's cache hands it out again) for a structure of the same kind:
            // the old handles stay destroyed, and cannot free the new one.
            StructureIdentity next = StructureIdentity.allocate(a, StructureKind.LOCK_FREE_LIST_SET, 40, 1, Gone::new);
            assertEquals(mine.ptr(), next.ptr(), "the block was reused");
            assertThrows(Gone.class, () -> theirs.checkLive(b));
            assertThrows(Gone.class, () -> theirs.destroy(b, 40));
            assertThrows(Gone.class, () -> mine.destroy(a, 40));
            StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, next.ptr(), root(), Gone::new).checkLive(b);

            // Reused as plain data that keeps the old identity word: that life is no structure's.
            next.destroy(a, 40);
            long plain = a.allocator().allocate(StructureIdentity.blockBytes(40), 1);
            assertEquals(RemotePtr.offset(next.ptr(), -8), plain, "the block was reused");
            assertThrows(Gone.class,
                    () -> StructureIdentity.attach(b, StructureKind.LOCK_FREE_LIST_SET, next.ptr(), root(), Gone::new));
        }
    }
}
