package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the sorted lists ({@link LockFreeListSetTest}, {@link LazyListSetTest}) promise beyond the set contract
 * ({@link RemoteSetContractTest}): a contains walk READs one 32-byte node per key passed, and the root header's 8
 * bytes with the head.
 */
abstract class SortedListSetContractTest extends RemoteSetContractTest {
    /** Nodes a walk for {@code key} visits in a list of {@code keys} without marked nodes: the head, the smaller keys, the node found unless it is the tail. */
    static int visited(long[] keys, long key) {
        int smaller = 0;
        for (long k : keys) {
            if (k < key) {
                smaller++;
            }
        }
        return 1 + smaller + (smaller < keys.length ? 1 : 0);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldReadEachVisitedNodeOnceWhenContainsWalksAnUncontendedList() {
        SetMaker maker = maker();
        long[] keys = {10, 20, 30, 40, 50, 60, 70, 80};
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t);
             RemoteSet s = maker.attach(t, r, maker.create(t, r, HOME))) {
            for (long k : keys) {
                assertTrue(s.insert(k));
            }
            for (long key = 5; key <= 90; key += 5) {
                Counts before = Counts.of(t);
                boolean present = s.contains(key);
                Counts used = before.since(t);
                int v = visited(keys, key);
                assertEquals(key % 10 == 0 && key <= 80, present, "contains " + key);
                assertTrue(v <= keys.length + 1);
                assertEquals(new Counts(v, v + 1, 0, 0, 0, 32L * v + 8, 0), used,
                        "contains " + key + ": one 32-byte READ per visited node, and the root header's 8 bytes with the head");
            }
        }
    }
}
