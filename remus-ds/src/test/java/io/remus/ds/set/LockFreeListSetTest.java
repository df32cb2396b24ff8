package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LockFreeListSet}: the set contract ({@link SortedListSetContractTest}), and the RDMA operations of its
 * changes, counted with the compute thread's counters on an uncontended set.
 */
class LockFreeListSetTest extends SortedListSetContractTest {
    @Override
    StructureKind kind() {
        return StructureKind.LOCK_FREE_LIST_SET;
    }

    @Override
    SetMaker maker() {
        return SetMaker.lockFree();
    }

    @Override
    long nextOffset() {
        return ListLayout.NEXT;
    }

    @Override
    RemoteSet create(ComputeThread t, Reclaimer r, int home) {
        return LockFreeListSet.create(t, r, home);
    }

    @Override
    RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
        return LockFreeListSet.attach(t, r, ptr);
    }

    @Override
    void destroy(RemoteSet set) {
        ((LockFreeListSet) set).destroy();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCostOneRoundTripPerVisitedNodePlusOneOrTwoWhenTheLockFreeListChangesUncontended() {
        long[] keys = {10, 20, 30, 40};
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             LockFreeListSet s = LockFreeListSet.attach(t, r, SetMaker.lockFree().create(t, r, HOME))) {
            for (long k : keys) {
                assertTrue(s.insert(k));
            }
            assertFalse(s.insert(30), "present: no change, and the handle keeps a spare node");
            long allocations = s.allocatorRoundTrips();
            int v = visited(keys, 25);
            Counts before = Counts.of(t);
            assertTrue(s.insert(25));
            assertEquals(new Counts(v + 1, v + 1, 1, 1, 0, 32L * v + 8, 32), before.since(t), "insert: v READs (and the root header's with the head), then a WRITE and a compare-and-swap in one batch");
            assertEquals(allocations, s.allocatorRoundTrips(), "the spare node was used");
            assertFalse(s.insert(10), "present: the handle allocates its next spare node");
            long[] now = {10, 20, 25, 30, 40};
            v = visited(now, 25);
            before = Counts.of(t);
            assertFalse(s.insert(25));
            assertEquals(new Counts(v, v + 1, 0, 0, 0, 32L * v + 8, 0), before.since(t), "insert of a present key: the walk only");
            before = Counts.of(t);
            assertTrue(s.remove(25));
            assertEquals(new Counts(v + 2, v + 1, 0, 2, 0, 32L * v + 8, 0), before.since(t), "remove: v READs, mark and unlink");
            v = visited(keys, 25);
            before = Counts.of(t);
            assertFalse(s.remove(25));
            assertEquals(new Counts(v, v + 1, 0, 0, 0, 32L * v + 8, 0), before.since(t), "remove of an absent key: the walk only");
        }
    }
}
