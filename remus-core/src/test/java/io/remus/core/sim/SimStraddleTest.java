package io.remus.core.sim;

import io.remus.core.ComputeThread;
import io.remus.core.config.NodeRange;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.memory.RemotePtr;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SimOptions#straddleOffset()}: every registration lies at simulated addresses with the chosen byte on a
 * 4 GiB boundary, reads, writes and atomics reach it there, and a word made of the halves of a pointer on each
 * side of the boundary names no published bytes ({@link ComputeThread#isPublished}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SimStraddleTest {
    private static final long FOUR_GIB = 1L << 32;
    private static final long OFFSET = 8192;

    @Test
    void shouldPutTheChosenByteOfEverySegmentOnA4GiBBoundaryWhenStraddling() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults().withStraddleOffset(OFFSET), 3, b -> { })) {
            ComputeThread t = c.thread(0);
            long previousEnd = 0;
            for (int node = 0; node < 3; node++) {
                for (int s = 0; s < t.segmentCount(node); s++) {
                    long base = RemotePtr.address(t.segmentBase(node, s));
                    assertEquals(0, (base + OFFSET) % FOUR_GIB, "node " + node + " segment " + s + " at 0x" + Long.toHexString(base));
                    assertTrue(base >= previousEnd, "segments of one fabric do not overlap");
                    previousEnd = base + t.segmentLength(node, s);
                }
            }
        }
    }

    @Test
    void shouldReadWriteAndCompareAndSwapOnBothSidesOfTheBoundary() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults().withStraddleOffset(OFFSET), 2, b -> { })) {
            ComputeThread remote = c.thread(0);
            ComputeThread local = c.thread(1);
            long base = remote.segmentBase(1, 1);
            long below = RemotePtr.offset(base, OFFSET - 8);
            long above = RemotePtr.offset(base, OFFSET);
            assertEquals(RemotePtr.address(below) >>> 32, (RemotePtr.address(above) >>> 32) - 1, "the words lie on either side");
            remote.write(below, 0x1111);
            local.write(above, 0x2222);
            assertEquals(0x1111, local.read(below));
            assertEquals(0x2222, remote.read(above));
            assertEquals(0x2222, remote.compareAndSwap(above, 0x2222, 0x3333));
            assertEquals(0x1111, local.fetchAndAdd(below, 1));
            assertEquals(0x3333, c.raw(above, 8).get(java.lang.foreign.ValueLayout.JAVA_LONG, 0), "the CPU sees the NIC's store");
            assertEquals(0x1112, remote.read(below));
        }
    }

    @Test
    void shouldTellAPointerTornAcrossTheBoundaryFromTheTwoItWasTornFrom() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults().withStraddleOffset(OFFSET), 2, b -> { })) {
            ComputeThread t = c.thread(0);
            long base = t.segmentBase(1, 1);
            long below = RemotePtr.offset(base, OFFSET - 64);
            long above = RemotePtr.offset(base, OFFSET + 64);
            assertTrue(t.isPublished(below, 32));
            assertTrue(t.isPublished(above, 32));
            long newLowOldHigh = (below & 0xFFFF_FFFF_0000_0000L) | (above & 0xFFFF_FFFFL);
            long oldLowNewHigh = (above & 0xFFFF_FFFF_0000_0000L) | (below & 0xFFFF_FFFFL);
            assertFalse(t.isPublished(newLowOldHigh, 32), RemotePtr.toString(newLowOldHigh));
            assertFalse(t.isPublished(oldLowNewHigh, 32), RemotePtr.toString(oldLowNewHigh));
            assertThrows(BadArgumentException.class, () -> t.read(newLowOldHigh), "a read of it is the caller's bad argument");
        }
    }

    @Test
    void shouldAnswerFalseWithoutThrowingForWhatNoReadAccepts() {
        try (TestCluster c = TestCluster.of(SimFabric::new)) {
            ComputeThread t = c.thread(0);
            long base = t.segmentBase(1, 0);
            long length = t.segmentLength(1, 0);
            assertTrue(t.isPublished(base, 8));
            assertFalse(t.isPublished(RemotePtr.NULL, 8), "null");
            assertFalse(t.isPublished(base, 0), "empty");
            assertFalse(t.isPublished(RemotePtr.offset(base, length - 4), 8), "past the segment's end");
            assertFalse(t.isPublished(RemotePtr.of(7, RemotePtr.address(base)), 8), "a node outside the cluster");
            assertFalse(t.isPublished(RemotePtr.of(RemotePtr.MAX_NODE_ID, 64), 8), "the largest node id");
        }
    }

    @Test
    void shouldAnswerFalseWithoutThrowingForANodeThatPublishesNoMemory() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> b.memoryNodes(new NodeRange(0, 1)))) {
            ComputeThread t = c.thread(0);
            long onMemoryNode = t.segmentBase(1, 0);
            assertFalse(t.isPublished(RemotePtr.of(2, RemotePtr.address(onMemoryNode)), 8), "node 2 is a compute node only");
            assertTrue(t.isPublished(onMemoryNode, 8));
        }
    }

    @Test
    void shouldPutTheMiddleOfAShortRegistrationOnTheBoundary() {
        try (SimFabric f = new SimFabric(SimOptions.defaults().withStraddleOffset(1 << 20)); FabricNode n = f.open(0)) {
            RegisteredMemory m = n.allocate(4096);
            assertEquals(0, (m.address() + 2048) % FOUR_GIB, "0x" + Long.toHexString(m.address()));
        }
        try (SimFabric f = new SimFabric(SimOptions.defaults().withStraddleOffset(100)); FabricNode n = f.open(0)) {
            RegisteredMemory m = n.allocate(4096);
            assertEquals(0, (m.address() + 64) % FOUR_GIB, "rounded down to 64 bytes: 0x" + Long.toHexString(m.address()));
        }
    }

    @Test
    void shouldRefuseAnOffsetOutsideItsRange() {
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> SimOptions.defaults().withStraddleOffset(-2));
        assertTrue(e.getMessage().contains("-2"), e.getMessage());
        assertThrows(BadArgumentException.class, () -> SimOptions.defaults().withStraddleOffset(FOUR_GIB + 1));
        assertEquals(SimOptions.NATIVE_ADDRESSES, SimOptions.defaults().straddleOffset());
    }
}
