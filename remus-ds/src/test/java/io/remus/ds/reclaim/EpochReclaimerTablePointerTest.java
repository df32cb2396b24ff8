package io.remus.ds.reclaim;

import io.remus.core.ComputeThread;
import io.remus.core.error.CorruptedControlBlockException;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A reclaimer table pointer, read from a memory node's control block, that names no memory of a segment is a
 * corrupted control block ({@link CorruptedControlBlockException}, naming the word and the value), never the
 * caller's bad argument: the reclaimer does not follow it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EpochReclaimerTablePointerTest {
    @Test
    void shouldReportACorruptedControlBlockWhenTheTablePointerNamesNoSegment() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults().withStraddleOffset(4096), 2, b -> { })) {
            ComputeThread t = c.thread(1);
            long word = RemotePtr.offset(t.segmentBase(1, 0), ControlBlock.RECLAIMER_TABLE);
            long outside = RemotePtr.offset(t.segmentBase(1, 0), 1L << 32);
            t.write(word, outside);
            CorruptedControlBlockException e = assertThrows(CorruptedControlBlockException.class,
                    () -> new EpochReclaimer(t, t.allocator()).close());
            assertTrue(e.getMessage().contains(RemotePtr.toString(outside)), e.getMessage());
        }
    }

    @Test
    void shouldReportACorruptedControlBlockWhenTheTablePointerNamesANodeOutsideTheCluster() {
        try (TestCluster c = TestCluster.of(SimFabric::new)) {
            ComputeThread t = c.thread(1);
            long word = RemotePtr.offset(t.segmentBase(1, 0), ControlBlock.RECLAIMER_TABLE);
            long elsewhere = RemotePtr.of(RemotePtr.MAX_NODE_ID, RemotePtr.address(t.segmentBase(1, 0)) + 4096);
            t.write(word, elsewhere);
            assertThrows(CorruptedControlBlockException.class, () -> new EpochReclaimer(t, t.allocator()).close());
        }
    }
}
