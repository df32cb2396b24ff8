package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link WaitFreeQueue}: FIFO order, full and empty, across handles on two nodes, the shared tests and the object contract. */
class WaitFreeQueueTest extends WaitFreeContainerTestBase<WaitFreeQueue> {
    @Override
    WaitFreeContainer.Kind kind() {
        return WaitFreeContainer.QUEUE;
    }

    @Override
    StructureKind structureKind() {
        return StructureKind.WAIT_FREE_QUEUE;
    }

    @Override
    WaitFreeQueue create(ComputeThread t, int node) {
        return WaitFreeQueue.create(t, new NeverReclaimer(t), node, 4, 4);
    }

    @Override
    WaitFreeQueue attach(ComputeThread t, long ptr) {
        return WaitFreeQueue.attach(t, new NeverReclaimer(t), ptr);
    }

    @Override
    StructureKind otherKind() {
        return StructureKind.WAIT_FREE_STACK;
    }

    @Override
    long createOther(ComputeThread t, int node) {
        return WaitFreeStack.create(t, new NeverReclaimer(t), node, 4, 4).ptr();
    }

    @Override
    List<Call<WaitFreeQueue>> rootReads() {
        return List.of(new Call<>("enqueue", h -> h.enqueue(1)), new Call<>("dequeue", WaitFreeQueue::dequeue),
                new Call<>("contents", WaitFreeQueue::contents));
    }

    @Override
    void use(WaitFreeQueue handle) {
        handle.enqueue(3);
        handle.enqueue(4);
        handle.dequeue();
        assertEquals(3, handle.value());
        assertEquals(1, handle.contents().length);
        assertEquals(4, handle.contents()[0]);
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
