package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WaitFreeObject}'s state pointer, when it names no bytes of a segment, is a torn read to read again, never
 * the caller's bad argument; read again whole and still outside every segment, it is a corrupted object
 * ({@link CorruptedMemoryException}), and nothing is followed through it. (Pointers torn in flight, read again
 * whole and then followed, are in the straddled histories of {@link WaitFreeContainerTestBase}.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WaitFreeObjectTornPointerTest {
    private static final int HOME = 1;
    private static final long STATE = 0;

    @Test
    void shouldReportACorruptedObjectWhenTheStatePointerStaysOutsideEverySegment() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults().withStraddleOffset(4096), 3, b -> { })) {
            ComputeThread t = c.thread(0);
            WaitFreeQueue q = WaitFreeQueue.create(t, new NeverReclaimer(t), HOME, 2, 4);
            assertTrue(q.enqueue(7));
            long word = RemotePtr.offset(q.ptr(), STATE);
            long block = t.read(word);
            long base = t.segmentBase(HOME, 0);
            long outside = (block & 0xFFFF_FFFFL) | ((base + (1L << 32) * 8) & 0xFFFF_FFFF_0000_0000L);
            assertTrue(!t.isPublished(outside, 8), RemotePtr.toString(outside) + " lies outside every segment");
            assertEquals(block, t.compareAndSwap(word, block, outside));
            CorruptedMemoryException e = assertThrows(CorruptedMemoryException.class, () -> q.enqueue(8));
            assertEquals(word, e.word(), e.getMessage());
            assertEquals(outside, e.value(), e.getMessage());
            assertThrows(CorruptedMemoryException.class, () -> q.object().applied(0));
            assertEquals(outside, t.read(word), "nothing published over it");
        }
    }

    @Test
    void shouldReportACorruptedObjectWhenTheStatePointerNamesANodeOutsideTheCluster() {
        try (TestCluster c = TestCluster.of(SimFabric::new)) {
            ComputeThread t = c.thread(0);
            WaitFreeQueue q = WaitFreeQueue.create(t, new NeverReclaimer(t), HOME, 2, 4);
            long word = RemotePtr.offset(q.ptr(), STATE);
            long block = t.read(word);
            long elsewhere = RemotePtr.of(RemotePtr.MAX_NODE_ID, RemotePtr.address(block));
            assertEquals(block, t.compareAndSwap(word, block, elsewhere));
            CorruptedMemoryException e = assertThrows(CorruptedMemoryException.class, q::dequeue);
            assertEquals(elsewhere, e.value(), e.getMessage());
            assertTrue(!(e.getCause() instanceof BadArgumentException));
        }
    }
}
