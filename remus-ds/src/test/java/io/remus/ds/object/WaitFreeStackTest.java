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

/** {@link WaitFreeStack}: LIFO order, full and empty, across handles on two nodes, the shared tests and the object contract. */
class WaitFreeStackTest extends WaitFreeContainerTestBase<WaitFreeStack> {
    @Override
    WaitFreeContainer.Kind kind() {
        return WaitFreeContainer.STACK;
    }

    @Override
    StructureKind structureKind() {
        return StructureKind.WAIT_FREE_STACK;
    }

    @Override
    WaitFreeStack create(ComputeThread t, int node) {
        return WaitFreeStack.create(t, new NeverReclaimer(t), node, 4, 4);
    }

    @Override
    WaitFreeStack attach(ComputeThread t, long ptr) {
        return WaitFreeStack.attach(t, new NeverReclaimer(t), ptr);
    }

    @Override
    StructureKind otherKind() {
        return StructureKind.WAIT_FREE_QUEUE;
    }

    @Override
    long createOther(ComputeThread t, int node) {
        return WaitFreeQueue.create(t, new NeverReclaimer(t), node, 4, 4).ptr();
    }

    @Override
    List<Call<WaitFreeStack>> rootReads() {
        return List.of(new Call<>("push", h -> h.push(1)), new Call<>("pop", WaitFreeStack::pop),
                new Call<>("contents", WaitFreeStack::contents));
    }

    @Override
    void use(WaitFreeStack handle) {
        handle.push(3);
        handle.push(4);
        handle.pop();
        assertEquals(4, handle.value());
        assertEquals(1, handle.contents().length);
    }

    @Test
    void shouldPopInLifoOrderAndReportFullAndEmptyAcrossHandles() {
        try (TestCluster c = cluster(SimOptions.defaults()); ComputeThread a = c.thread(0); ComputeThread b = c.thread(2);
             NeverReclaimer ra = new NeverReclaimer(a); NeverReclaimer rb = new NeverReclaimer(b)) {
            WaitFreeStack sa = WaitFreeStack.create(a, ra, HOME, 2, 3);
            WaitFreeStack sb = WaitFreeStack.attach(b, rb, sa.ptr());
            assertEquals(3, sb.elements());
            assertFalse(sb.pop(), "a new stack is empty");
            assertTrue(sa.push(1));
            assertTrue(sb.push(2));
            assertTrue(sa.push(Long.MIN_VALUE));
            assertFalse(sb.push(4), "the fourth element does not fit");
            assertArrayEquals(new long[] {1, 2, Long.MIN_VALUE}, sb.contents());
            assertTrue(sb.pop());
            assertEquals(Long.MIN_VALUE, sb.value());
            assertTrue(sa.push(5));
            assertTrue(sa.pop());
            assertEquals(5, sa.value());
            assertTrue(sb.pop());
            assertEquals(2, sb.value());
            assertTrue(sa.pop());
            assertEquals(1, sa.value());
            assertFalse(sb.pop(), "empty again");
            assertEquals(2, sb.value(), "a failed pop keeps the last value");
            assertEquals(sa.object().announced(), sa.object().applied(sa.object().slot()));
            assertEquals(sb.object().announced(), sb.object().applied(sb.object().slot()));
            sa.destroy();
        }
    }
}
