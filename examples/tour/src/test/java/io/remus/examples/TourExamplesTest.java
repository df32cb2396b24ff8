package io.remus.examples;

import io.remus.ds.set.LockFreeSkipListSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs every example of the tour on the simulator, as its {@code main} does, and checks what it returned and
 * printed: facts the example's comments promise, never timings.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TourExamplesTest {
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadWriteSwapAndAddWhenOneSidedOperationsRun() {
        OneSidedOperations.Outcome o = OneSidedOperations.run(out);

        assertEquals(1, o.node());
        assertEquals(7, o.read());
        assertEquals(7, o.casWon());
        assertEquals(8, o.casLost());
        assertEquals(3 + 4, o.bytes());
        assertEquals(0, o.asyncOld());
        assertEquals(1, o.asyncRead());
        assertEquals(1, o.asyncRoundTrips(), "two operations in flight together");
        assertEquals(100, o.batchOld());
        assertEquals(105, o.batchRead());
        assertEquals(1, o.batchRoundTrips(), "a doorbell batch is one round trip");
        assertTrue(printed().contains("batch: fetchAndAdd saw 100, read saw 105, in 1 round trip"), printed());
    }

    @Test
    void shouldKeepEveryKeyNotRemovedAndFreeEveryRetiredNodeWhenTwoThreadsShareTheSkipList() throws Exception {
        List<SkipListWithReclamation.ThreadOutcome> outcomes = SkipListWithReclamation.run(out);

        int keys = SkipListWithReclamation.KEYS;
        int multiplesOf3 = (keys + 2) / 3;
        assertEquals(2, outcomes.size());
        assertEquals(multiplesOf3, outcomes.get(0).removed() + outcomes.get(1).removed());
        for (SkipListWithReclamation.ThreadOutcome o : outcomes) {
            assertEquals(keys / 2, o.inserted(), o.toString());
            assertEquals(keys - multiplesOf3, o.present(), o.toString());
            assertEquals(o.removed() * (long) LockFreeSkipListSet.nodeBytes(LockFreeSkipListSet.DEFAULT_MAX_LEVEL),
                    o.retired(), "every removed node is retired: " + o);
            assertEquals(0, o.unreclaimed(), "every retired node is freed: " + o);
        }
        assertTrue(printed().contains("node 1: inserted 100, removed 33, found 133 keys"), printed());
    }

    @Test
    void shouldFindTheMapThroughTheRootAndRefuseCallsAfterItsDestroyWhenTwoNodesShareIt() {
        TypedMapThroughRoot.Outcome o = TypedMapThroughRoot.run(out);

        assertEquals(1, o.mapNode());
        assertEquals("Bethlehem", o.foundByNode1());
        assertEquals("C++", o.foundByNode0());
        assertNull(o.missing());
        assertTrue(o.closedSeen());
        assertTrue(printed().contains("node 0 read remus=C++"), printed());
    }

    @Test
    void shouldApplyEveryUpdateOnceWhenTheALockGuardsTheRecord() throws Exception {
        ALockRecord.Outcome o = ALockRecord.run(out);

        int threads = ALockRecord.NODES.length;
        assertEquals((long) threads * ALockRecord.UPDATES, o.count());
        assertEquals((long) ALockRecord.UPDATES * threads * (threads + 1) / 2, o.sum());
        assertEquals(2, o.localPaths(), "node 0's two threads take the local path");
        assertTrue(printed().contains("record: count 400, sum 1000"), printed());
    }

    @Test
    void shouldCountEveryKeyTwiceWhenTheTrusteeServesTwoClients() throws Exception {
        TrusteeDelegation.Outcome o = TrusteeDelegation.run(out);

        int keys = TrusteeDelegation.KEYS;
        assertEquals(3L * keys, o.returnedByNode0() + o.returnedByNode1(), "each key returned 1 to one client, 2 to the other");
        assertTrue(o.returnedByNode0() >= keys && o.returnedByNode0() <= 2L * keys, o.toString());
        assertEquals(keys, o.size());
        assertEquals(2L * keys + 1, o.served());
        assertTrue(o.everyKeyTwice());
        assertTrue(printed().contains("SIZE returned 50; the trustee served 101 requests"), printed());
    }

    @Test
    void shouldCountEveryIncrementAndKeepEachThreadsOrderWhenWaitFreeObjectsAreShared() throws Exception {
        WaitFreeObjects.Outcome o = WaitFreeObjects.run(out);

        int total = WaitFreeObjects.NODES.length * WaitFreeObjects.PER_THREAD;
        assertEquals(total, o.counter());
        assertEquals(total, o.distinctOlds());
        assertEquals(total, o.dequeued());
        assertTrue(o.fifoPerThread());
        assertTrue(printed().contains("counter 60, 60 distinct values"), printed());
    }

    @Test
    void shouldReadTheSumOfEveryNodesAdditionOnEveryNodeWhenTheClusterRunsOnTheSimulator() throws Exception {
        List<Long> totals = ClusterMain.runOnSimulator(out);

        int n = ClusterMain.SIM_NODES;
        assertEquals(List.of(6L, 6L, 6L), totals);
        assertEquals(n * (n + 1) / 2, totals.get(0));
        assertTrue(printed().contains("node 2 of 3 read the counter: 6"), printed());
    }

    @Test
    void shouldUpdateAStructsFieldsByNameInOneRoundTripEachWhenTypedStructsRun() {
        TypedStructs.Outcome o = TypedStructs.run(out);

        assertEquals(70, o.balance());
        assertEquals(2, o.version());
        assertEquals(42, o.owner());
        assertEquals(9, o.roundTrips(), "3 WRITEs, 3 fetch-and-adds, a READ and a compare-and-swap of words, one READ of the struct");
        assertTrue(printed().contains("balance 70, version 2, owner 42, 9 round trips"), printed());
    }

    @Test
    void shouldShareOneStructurePerNameAndRefuseAnotherKindWhenNamedRootsRun() {
        NamedRoots.Outcome o = NamedRoots.run(out);

        assertTrue(o.sameCounter());
        assertEquals(2, o.hits());
        assertTrue(o.sameMap());
        assertEquals("ada", o.user());
        assertTrue(o.wrongKind().contains("hits"), o.wrongKind());
    }
}
