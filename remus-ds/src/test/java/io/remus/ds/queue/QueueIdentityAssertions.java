package io.remus.ds.queue;

import io.remus.core.ComputeThread;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.ValueLayout;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Assertions on the identity of a queue's root, shared by {@link MpmcQueueContractTest} and
 * {@link QueueIdentityTest}.
 */
final class QueueIdentityAssertions {
    private QueueIdentityAssertions() {
    }

    /** {@code attach} throws a {@link WrongStructureException} that expected {@code expected} and found {@code found}. */
    static void assertWrong(StructureKind expected, StructureKind found, Executable attach) {
        WrongStructureException e = assertThrows(WrongStructureException.class, attach);
        assertEquals(expected, e.expected(), e.getMessage());
        assertEquals(found, e.found(), e.getMessage());
        assertTrue(e.getMessage().contains(expected.typeName()), e.getMessage());
    }

    /** {@code call} throws a {@link ClosedQueueException} naming {@code ptr}. */
    static void assertClosed(Executable call, long ptr) {
        ClosedQueueException e = assertThrows(ClosedQueueException.class, call);
        assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
    }

    /**
     * Runs {@code calls}, each of which must throw {@link ClosedQueueException}, and checks that they changed no word
     * of the {@code bytes} bytes at {@code ptr}.
     */
    static void assertClosedAndUntouched(TestCluster c, long ptr, long bytes, Executable... calls) {
        long[] before = c.raw(ptr, bytes).toArray(ValueLayout.JAVA_LONG);
        for (Executable call : calls) {
            assertClosed(call, ptr);
        }
        assertArrayEquals(before, c.raw(ptr, bytes).toArray(ValueLayout.JAVA_LONG),
                "the calls changed no word at " + RemotePtr.toString(ptr));
    }

    /**
     * The destroyed queue at {@code ptr} keeps its block while its last handle is open; {@code closeLast} closes that
     * handle, which frees it.
     */
    static void assertKeptUntilTheLastHandleCloses(ComputeThread t, long ptr, Runnable closeLast) {
        long headerAt = BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES));
        long header = t.read(headerAt);
        assertEquals(BlockHeader.ALLOCATED, BlockHeader.state(header), "a handle is open: the block stays allocated");
        closeLast.run();
        assertEquals(BlockHeader.FREE, BlockHeader.state(t.read(headerAt)), "the last handle's close freed it");
    }

    /**
     * Two threads on nodes 1 and 2 attach to the queue at {@code ptr} ({@code attach} answers the handle's destroy)
     * and destroy it at once: exactly one wins.
     */
    static void raceDestroys(TestCluster c, long ptr, Function<ComputeThread, Runnable> attach)
            throws InterruptedException {
        AtomicInteger won = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        CyclicBarrier attached = new CyclicBarrier(2);
        c.runOnThreads(new int[] {1, 2}, (i, t) -> {
            Runnable destroy = attach.apply(t);
            attached.await(30, TimeUnit.SECONDS);
            try {
                destroy.run();
                won.incrementAndGet();
            } catch (ClosedQueueException e) {
                closed.incrementAndGet();
            }
        });
        assertEquals(1, won.get(), "exactly one of two racing destroys frees the queue at " + RemotePtr.toString(ptr));
        assertEquals(1, closed.get(), "the other gets ClosedQueueException");
    }
}
