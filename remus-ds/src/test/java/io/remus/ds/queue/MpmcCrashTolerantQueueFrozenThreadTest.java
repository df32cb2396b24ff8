package io.remus.ds.queue;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a frozen caller ({@link SimFabric#freeze}: parked between two of its RDMA operations, as a process
 * stopped or killed there) does to the others on {@link MpmcCrashTolerantQueue}. A producer frozen between its
 * claim and its publication holds up each poll only for that poll's patience: the poll poisons the ticket, every
 * other value comes out in order over many laps, and the queue still takes exactly its capacity (the frozen
 * producer's cell is one of the spare ones). Frozen while it holds a free cell, before its claim, it holds up
 * no one. A consumer frozen after its claim holds up no one either. Released, each frozen call completes: the
 * poisoned producer publishes on a later ticket, and its value comes out once.
 *
 * <p>The queue lives on node 1; the frozen thread runs on node 0, the live one on node 2.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MpmcCrashTolerantQueueFrozenThreadTest {
    private static final int HOME = 1;
    private static final int CAPACITY = 2;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration SHORT = Duration.ofMillis(20);
    private static final long FROZEN_VALUE = -42;

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { });
    }

    private static long create(TestCluster c, int spare) {
        try (ComputeThread t = c.thread(HOME)) {
            return MpmcCrashTolerantQueue.create(t, CAPACITY, spare).ptr();
        }
    }

    /** Laps of offer-then-poll with short patience, every value in order; then exactly the capacity fits. */
    private static MpmcCrashTolerantQueue runLaps(ComputeThread t, long ptr, int values) {
        MpmcCrashTolerantQueue q = MpmcCrashTolerantQueue.attach(t, ptr);
        for (long v = 0; v < values; v++) {
            assertTrue(q.offer(v, SHORT), "offer " + v);
            assertEquals(OptionalLong.of(v), q.poll(SHORT), "value " + v + " comes out next, in order");
        }
        int fit = 0;
        while (q.offer(1000 + fit, SHORT)) {
            fit++;
        }
        assertEquals(CAPACITY, fit, "the queue still takes exactly its capacity");
        for (int i = 0; i < fit; i++) {
            assertEquals(OptionalLong.of(1000 + i), q.poll(SHORT));
        }
        assertTrue(q.poll(SHORT).isEmpty());
        return q;
    }

    @Test
    void shouldPoisonTheTicketOfAProducerFrozenBetweenItsClaimAndItsPublicationAndGoOn() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr = create(c, 1);
            FrozenCaller<MpmcCrashTolerantQueue, Boolean> frozen = new FrozenCaller<>(c, t -> MpmcCrashTolerantQueue.attach(t, ptr),
                    q -> q.offer(FROZEN_VALUE, WAIT));
            // Before its 8th work request: free ring and block header READs, CAS, CAS; WRITE of the cell; allocated ring
            // READ, CAS tail.
            SimFreeze freeze = frozen.freezeAfter(c, 7, Opcode.COMPARE_AND_SWAP);
            try (ComputeThread t = c.thread(2)) {
                MpmcCrashTolerantQueue q = runLaps(t, ptr, 10);
                assertEquals(1, q.poisoned(), "the live poll poisoned the frozen producer's ticket, once");
                assertEquals(0, q.lostCells());
            }
            assertTrue(frozen.releaseAndAwait(freeze), "released, its publication fails once and it publishes on a later ticket");
            assertEquals(1, frozen.handle().poisonedPublications());
            try (ComputeThread t = c.thread(2)) {
                MpmcCrashTolerantQueue q = MpmcCrashTolerantQueue.attach(t, ptr);
                assertEquals(OptionalLong.of(FROZEN_VALUE), q.poll(WAIT), "its value comes out once");
                assertTrue(q.poll(WAIT).isEmpty());
                runLaps(t, ptr, 4);
            }
        }
    }

    @Test
    void shouldHoldUpNoOneWhenAProducerIsFrozenHoldingAFreeCellBeforeItsClaim() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr = create(c, 1);
            FrozenCaller<MpmcCrashTolerantQueue, Boolean> frozen = new FrozenCaller<>(c, t -> MpmcCrashTolerantQueue.attach(t, ptr),
                    q -> q.offer(FROZEN_VALUE, WAIT));
            // Before its 5th work request: free ring and block header READs, CAS, CAS.
            SimFreeze freeze = frozen.freezeAfter(c, 4, Opcode.WRITE);
            try (ComputeThread t = c.thread(2)) {
                MpmcCrashTolerantQueue q = runLaps(t, ptr, 10);
                assertEquals(0, q.poisoned(), "no claim was in flight");
            }
            assertTrue(frozen.releaseAndAwait(freeze));
            try (ComputeThread t = c.thread(2)) {
                MpmcCrashTolerantQueue q = MpmcCrashTolerantQueue.attach(t, ptr);
                assertEquals(OptionalLong.of(FROZEN_VALUE), q.poll(WAIT));
                assertTrue(q.poll(WAIT).isEmpty());
            }
        }
    }

    @Test
    void shouldHoldUpNoOneWhenAConsumerIsFrozenAfterItsClaim() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr = create(c, 1);
            try (ComputeThread t = c.thread(2)) {
                assertTrue(MpmcCrashTolerantQueue.attach(t, ptr).offer(FROZEN_VALUE, WAIT));
            }
            FrozenCaller<MpmcCrashTolerantQueue, OptionalLong> frozen = new FrozenCaller<>(c, t -> MpmcCrashTolerantQueue.attach(t, ptr),
                    q -> q.poll(WAIT));
            // Before its 4th work request: after the READs of the entry and the block header and the claim of the head.
            SimFreeze freeze = frozen.freezeAfter(c, 3, Opcode.COMPARE_AND_SWAP);
            try (ComputeThread t = c.thread(2)) {
                runLaps(t, ptr, 10);
            }
            assertEquals(OptionalLong.of(FROZEN_VALUE), frozen.releaseAndAwait(freeze), "released, it returns its ticket's value");
            assertEquals(0, frozen.handle().lostCells(), "and gives its cell back");
            try (ComputeThread t = c.thread(2)) {
                runLaps(t, ptr, 4);
            }
        }
    }
}
