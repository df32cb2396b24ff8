package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link WaitFreeQueue}: FIFO order, full and empty, across handles on two nodes, and the shared tests. */
class WaitFreeQueueTest extends WaitFreeContainerTestBase {
    @Override
    WaitFreeContainer.Kind kind() {
        return WaitFreeContainer.QUEUE;
    }

    @Test
    void shouldDequeueInFifoOrderAndReportFullAndEmptyAcrossHandles() {
        try (TestCluster c = cluster(SimOptions.defaults()); ComputeThread a = c.thread(0); ComputeThread b = c.thread(2);
             NeverReclaimer ra = new NeverReclaimer(a); NeverReclaimer rb = new NeverReclaimer(b)) {
            WaitFreeQueue qa = WaitFreeQueue.create(a, ra, HOME, 2, 3);
            WaitFreeQueue qb = WaitFreeQueue.attach(b, rb, qa.ptr());
            assertEquals(3, qb.elements());
            assertFalse(qb.dequeue(), "a new queue is empty");
            for (int round = 0; round < 4; round++) {
                assertTrue(qa.enqueue(10 + round));
                assertTrue(qb.enqueue(20 + round));
                assertTrue(qa.enqueue(-1 - round), "any word is an element");
                assertFalse(qb.enqueue(99), "the fourth element does not fit");
                assertArrayEquals(new long[] {10 + round, 20 + round, -1 - round}, qa.contents());
                assertTrue(qb.dequeue());
                assertEquals(10 + round, qb.value());
                assertTrue(qa.dequeue());
                assertEquals(20 + round, qa.value());
                assertTrue(qb.dequeue());
                assertEquals(-1 - round, qb.value());
                assertFalse(qa.dequeue(), "empty again");
                assertEquals(20 + round, qa.value(), "a failed dequeue keeps the last value");
            }
            assertEquals(qa.object().announced(), qa.object().applied(qa.object().slot()));
            assertEquals(qb.object().announced(), qb.object().applied(qb.object().slot()));
            assertTrue(ra.retiredBytes() + rb.retiredBytes() > 0, "replaced states were retired");
            qa.destroy();
        }
    }
}
