package io.remus.ds;

import io.remus.core.ComputeThread;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.RecordingScheduledThread;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import io.remus.ds.delegate.Trust;
import io.remus.ds.delegate.Trustee;
import io.remus.ds.delegate.TrusteeClient;
import io.remus.ds.delegate.TrusteeTimeoutException;
import io.remus.ds.object.SharedStateTable;
import io.remus.ds.queue.MpmcBoundedQueue;
import io.remus.ds.queue.QueueTimeoutException;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.set.LockFreeSkipListSet;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The structures read the clock and wait through {@link io.remus.core.time.ThreadTime}: on a scheduled thread
 * ({@link RecordingScheduledThread}, whose clock moves only when it waits) a deadline of many seconds passes on that
 * thread's clock in a few thousand counted waits, and randomness that shapes a structure follows from the
 * thread, not from the host.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadTimeWaitsTest {
    /** Far longer than the test's host timeout: a deadline on the host's clock would not pass. */
    private static final Duration LONG = Duration.ofSeconds(120);
    private static final long STEP = 1_000_000;

    private static TestCluster cluster(Duration operationTimeout) {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 2,
                b -> b.segmentSize(4 << 20).operationTimeout(operationTimeout));
    }

    @Test
    void shouldTimeAnUnansweredDelegatedRequestOutOnTheCallersClock() throws Exception {
        try (TestCluster c = cluster(LONG)) {
            RecordingScheduledThread t = RecordingScheduledThread.run(0, STEP, () -> {
                try (ComputeThread home = c.thread(1); ComputeThread caller = c.thread(0)) {
                    Trustee<Object> trustee = Trustee.create(home, 2, 1);
                    Trust<Object> trust = TrusteeClient.connect(caller, trustee.ptr()).trust(0);
                    assertThrows(TrusteeTimeoutException.class, () -> trust.apply(0, 1, LONG));
                    assertThrows(TrusteeTimeoutException.class, () -> trust.apply(0, 1, LONG),
                            "the one slot is still in flight: waiting for it to come free times out too");
                }
                return null;
            });
            assertTrue(t.clock() >= 2 * LONG.toNanos(), "both deadlines passed on the thread's clock: " + t.clock());
            assertTrue(t.waits("a trustee's response") > 0, t.waits().toString());
        }
    }

    @Test
    void shouldTimeAPollOutOnTheCallersClockWhileASlotIsClaimedAndNeverPublished() throws Exception {
        try (TestCluster c = cluster(LONG)) {
            String label = "a bounded queue's slot held by a claim in flight";
            RecordingScheduledThread t = RecordingScheduledThread.run(0, STEP, () -> {
                try (ComputeThread th = c.thread(0)) {
                    MpmcBoundedQueue q = MpmcBoundedQueue.create(th, 4);
                    c.raw(RemotePtr.offset(q.ptr(), 8), 8).set(ValueLayout.JAVA_LONG, 0, 1);
                    assertThrows(QueueTimeoutException.class, () -> q.poll(LONG), "ticket 0 is claimed, never published");
                }
                return null;
            });
            assertTrue(t.clock() >= LONG.toNanos(), "the patience passed on the thread's clock: " + t.clock());
            assertTrue(t.waits(label) > 3, "spins, then parks, on the thread's clock: " + t.waits());
        }
    }

    @Test
    void shouldRefuseATornRowAtTheOperationTimeoutOfTheCallersClock() throws Exception {
        try (TestCluster c = cluster(LONG)) {
            RecordingScheduledThread t = RecordingScheduledThread.run(0, STEP, () -> {
                try (ComputeThread th = c.thread(0)) {
                    SharedStateTable table = SharedStateTable.create(th, 1, 2, 13);
                    table.write(MemorySegment.ofArray(new byte[13]));
                    long dataByte = RemotePtr.offset(table.ptr(), 24 + 8 + 3);
                    c.raw(dataByte, 1).set(ValueLayout.JAVA_BYTE, 0, (byte) 99);
                    assertThrows(CorruptedMemoryException.class, () -> table.readRow(0, MemorySegment.ofArray(new byte[13])));
                }
                return null;
            });
            assertTrue(t.clock() >= LONG.toNanos(), "the operation timeout passed on the thread's clock: " + t.clock());
            assertTrue(t.waits("a torn row of a shared-state table") > 0, t.waits().toString());
        }
    }

    @Test
    void shouldMeasureEpochLeasesOnTheScheduledThreadsClockByDefault() throws Exception {
        RecordingScheduledThread t = RecordingScheduledThread.run(0, STEP, () -> {
            long before = EpochOptions.defaults().clock().getAsLong();
            ThreadTime.charge(5_000_000_000L);
            return EpochOptions.defaults().clock().getAsLong() - before;
        });
        assertEquals(5_000L, t.result(), "5 s charged are 5,000 ms of the lease clock");
    }

    @Test
    void shouldDrawTheSameSkipListHeightsOnTwoRunsOfTheSameScheduledThread() throws Exception {
        assertEquals(skipListInsertCosts(), skipListInsertCosts());
    }

    /** The round trips of each of 64 inserts into a new skip list: they follow from the nodes' drawn heights. */
    private static Object skipListInsertCosts() throws Exception {
        try (TestCluster c = cluster(Duration.ofSeconds(60))) {
            return RecordingScheduledThread.run(0, STEP, () -> {
                List<Long> costs = new ArrayList<>();
                try (ComputeThread th = c.thread(0); NeverReclaimer r = new NeverReclaimer(th)) {
                    LockFreeSkipListSet set = LockFreeSkipListSet.create(th, r, 1);
                    for (long k = 1; k <= 64; k++) {
                        Counts before = Counts.of(th);
                        assertTrue(set.insert(k * 7919 % 1000));
                        costs.add(before.since(th).roundTrips());
                    }
                }
                return costs;
            }).result();
        }
    }
}
