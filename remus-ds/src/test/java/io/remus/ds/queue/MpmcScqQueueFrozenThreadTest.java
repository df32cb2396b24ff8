package io.remus.ds.queue;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a frozen caller ({@link SimFabric#freeze}: parked between two of its RDMA operations, as a process stopped
 * or killed there) does to the others on {@link MpmcScqQueue}: nothing but hold its one cell. A producer frozen
 * between its ticket and its publication, a consumer frozen between its ticket and the take of its entry, and a
 * consumer frozen while it holds a cell it has not given back: in each case every other value comes out in order
 * over many laps, no live call waits, and the queue takes one word fewer than its capacity (the frozen caller's
 * cell). Released, each frozen call completes: the producer's publication finds its ticket marked and publishes
 * on a later one, the consumer returns its ticket's value, and the queue takes its whole capacity again.
 *
 * <p>The queue lives on node 1; the frozen thread runs on node 0, the live one on node 2.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MpmcScqQueueFrozenThreadTest {
    private static final int HOME = 1;
    private static final int CAPACITY = 3;
    private static final long FROZEN_VALUE = -42;

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { });
    }

    private static long create(TestCluster c) {
        try (ComputeThread t = c.thread(HOME)) {
            return MpmcScqQueue.create(t, CAPACITY).ptr();
        }
    }

    /** Laps of offer-then-poll, every value in order; then exactly {@code fits} words fit, and come out in order. */
    private static MpmcScqQueue runLaps(ComputeThread t, long ptr, int values, int fits) {
        MpmcScqQueue q = MpmcScqQueue.attach(t, ptr);
        for (long v = 0; v < values; v++) {
            assertTrue(q.offer(v), "offer " + v);
            assertEquals(OptionalLong.of(v), q.poll(), "value " + v + " comes out next, in order");
        }
        int fit = 0;
        while (q.offer(1000 + fit)) {
            fit++;
        }
        assertEquals(fits, fit, "words that fit");
        for (int i = 0; i < fit; i++) {
            assertEquals(OptionalLong.of(1000 + i), q.poll());
        }
        assertTrue(q.poll().isEmpty());
        return q;
    }

    @Test
    void shouldMarkTheTicketOfAProducerFrozenBeforeItsPublicationAndGoOn() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr = create(c);
            FrozenCaller<MpmcScqQueue, Boolean> frozen = new FrozenCaller<>(c, t -> MpmcScqQueue.attach(t, ptr),
                    q -> q.offer(FROZEN_VALUE));
            // Before its 7th work request: free ring READ threshold, FAA head, READ entry, FAA entry, WRITE cell;
            // allocated ring FAA tail. It holds a ticket of the allocated ring and a cell.
            SimFreeze freeze = frozen.freezeAfter(c, 6, Opcode.READ);
            try (ComputeThread t = c.thread(2)) {
                MpmcScqQueue q = runLaps(t, ptr, 10, CAPACITY - 1);
                assertTrue(q.retakes() >= 1, "the live poll marked the frozen producer's ticket and took another");
            }
            assertTrue(frozen.releaseAndAwait(freeze), "released, it publishes on a later ticket");
            assertTrue(frozen.handle().retakes() >= 1, "its own ticket was marked");
            try (ComputeThread t = c.thread(2)) {
                MpmcScqQueue q = MpmcScqQueue.attach(t, ptr);
                assertEquals(OptionalLong.of(FROZEN_VALUE), q.poll(), "its value comes out once");
                assertTrue(q.poll().isEmpty());
                runLaps(t, ptr, 4, CAPACITY);
            }
        }
    }

    @Test
    void shouldHoldUpNoOneWhenAConsumerIsFrozenBetweenItsTicketAndItsTake() throws Exception {
        // Before its 3rd work request: after the READ of the threshold and the fetch-and-add of the head.
        freezeAConsumerAndRunLaps(2, Opcode.READ);
    }

    @Test
    void shouldHoldUpNoOneWhenAConsumerIsFrozenHoldingTheCellItTook() throws Exception {
        // Before its 6th work request: READ threshold, FAA head, READ entry, FAA entry, READ cell; then the free
        // ring's FAA of its tail.
        freezeAConsumerAndRunLaps(5, Opcode.FETCH_AND_ADD);
    }

    /**
     * With one value queued, freezes a poll before its work request after the first {@code skip} (of kind
     * {@code expected}); the live thread runs laps with one cell fewer, and once released the poll returns the value
     * and the queue takes its whole capacity again.
     */
    private static void freezeAConsumerAndRunLaps(int skip, Opcode expected) throws Exception {
        try (TestCluster c = cluster()) {
            long ptr = create(c);
            try (ComputeThread t = c.thread(2)) {
                assertTrue(MpmcScqQueue.attach(t, ptr).offer(FROZEN_VALUE));
            }
            FrozenCaller<MpmcScqQueue, OptionalLong> frozen = new FrozenCaller<>(c, t -> MpmcScqQueue.attach(t, ptr),
                    MpmcScqQueue::poll);
            SimFreeze freeze = frozen.freezeAfter(c, skip, expected);
            try (ComputeThread t = c.thread(2)) {
                runLaps(t, ptr, 10, CAPACITY - 1);
            }
            assertEquals(OptionalLong.of(FROZEN_VALUE), frozen.releaseAndAwait(freeze), "released, it returns its ticket's value");
            try (ComputeThread t = c.thread(2)) {
                runLaps(t, ptr, 4, CAPACITY);
            }
        }
    }
}
