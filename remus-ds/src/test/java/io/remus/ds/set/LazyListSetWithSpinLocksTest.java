package io.remus.ds.set;

import io.remus.alock.LockContext;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LazyListSet} with spin locks: the set contract ({@link LazyListSetTest}), and the RDMA operations of its
 * changes, counted with the compute thread's counters on an uncontended set.
 */
class LazyListSetWithSpinLocksTest extends LazyListSetTest {
    @Override
    LockKind lockKind() {
        return LockKind.SPIN;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCostTheWalkPlusFiveOrSixRoundTripsWhenTheLazyListChangesUncontendedWithSpinLocks() {
        long[] keys = {10, 20, 30, 40};
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             LazyListSet s = LazyListSet.attach(new LockContext(t, SetMaker.LOCKS), r, SetMaker.lazy(LockKind.SPIN).create(t, r, HOME))) {
            for (long k : keys) {
                assertTrue(s.insert(k));
            }
            assertFalse(s.insert(30), "present: the handle keeps its spare node");
            int v = visited(keys, 25);
            Counts before = Counts.of(t);
            assertTrue(s.insert(25));
            // v READs (the head's with the root header's); lock pred and curr (a compare-and-swap each); validation: 2 READs in one batch; WRITE + CAS in one batch; 2 unlocks.
            assertEquals(new Counts(v + 6, v + 3, 1, 5, 0, 32L * (v + 2) + 8, LazyListSet.NODE_BYTES), before.since(t), "insert");
            assertFalse(s.insert(10), "present: the handle allocates its next spare node");
            long[] now = {10, 20, 25, 30, 40};
            v = visited(now, 25);
            before = Counts.of(t);
            assertFalse(s.insert(25));
            assertEquals(new Counts(v + 5, v + 3, 0, 4, 0, 32L * (v + 2) + 8, 0), before.since(t), "insert of a present key");
            before = Counts.of(t);
            assertTrue(s.remove(25));
            // ... and mark + unlink: 2 compare-and-swaps in one batch.
            assertEquals(new Counts(v + 6, v + 3, 0, 6, 0, 32L * (v + 2) + 8, 0), before.since(t), "remove");
            v = visited(keys, 99);
            before = Counts.of(t);
            assertFalse(s.remove(99));
            // The node found is the tail: never read, so the validation is 1 READ.
            assertEquals(new Counts(v + 5, v + 2, 0, 4, 0, 32L * (v + 1) + 8, 0), before.since(t), "remove of an absent key past the last");
        }
    }
}
