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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a frozen caller ({@link SimFabric#freeze}: parked between two of its RDMA operations) does to
 * the others on {@link MpmcBoundedQueue}. Frozen before its claim, it holds nothing: every other caller
 * completes all of its operations. Frozen after claiming a ticket and before publishing its value, it
 * blocks the consumers of that ticket: each poll waits and ends in {@link QueueTimeoutException} at its
 * deadline having taken nothing, while producers still get exact answers (they fill the other slots,
 * then see the queue full). Released, the frozen offer completes and every value comes out once, in
 * ticket order. A consumer frozen after claiming its ticket and before freeing the slot blocks nobody: it
 * already holds its value, and the producer of that slot's next lap frees the slot for it; released, the
 * frozen poll returns its ticket's value and changes nothing more.
 *
 * <p>The queue lives on node 1; the frozen thread runs on node 0, the live ones on nodes 0 and 2.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MpmcBoundedQueueFrozenThreadTest {
    private static final int HOME = 1;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long FROZEN_VALUE = -42;

    /** A producer on node 0 offering {@link #FROZEN_VALUE}. */
    private static FrozenCaller<MpmcBoundedQueue, Boolean> producer(TestCluster c, long ptr) {
        return new FrozenCaller<>(c, t -> MpmcBoundedQueue.attach(t, ptr), q -> q.offer(FROZEN_VALUE, FrozenCaller.MAX_FROZEN));
    }

    /** A consumer on node 0 polling once. */
    private static FrozenCaller<MpmcBoundedQueue, OptionalLong> consumer(TestCluster c, long ptr) {
        return new FrozenCaller<>(c, t -> MpmcBoundedQueue.attach(t, ptr), q -> q.poll(FrozenCaller.MAX_FROZEN));
    }

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { });
    }

    private static long create(TestCluster c, int capacity) {
        try (ComputeThread t = c.thread(HOME)) {
            return MpmcBoundedQueue.create(t, capacity).ptr();
        }
    }

    @Test
    void shouldLetEveryOtherCallerFinishWhenAProducerIsFrozenBeforeItsClaim() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr = create(c, 4);
            FrozenCaller<MpmcBoundedQueue, Boolean> frozen = producer(c, ptr);
            // Before its 3rd work request: after the READs of the slot and the block header, before its claim.
            SimFreeze freeze = frozen.freezeAfter(c, 2, Opcode.COMPARE_AND_SWAP);
            int perProducer = 200;
            AtomicInteger received = new AtomicInteger();
            List<Long> got = Collections.synchronizedList(new ArrayList<>());
            c.runOnThreads(new int[] {0, 2, 0, 2}, (index, t) -> {
                MpmcBoundedQueue q = MpmcBoundedQueue.attach(t, ptr);
                if (index < 2) {
                    for (int i = 0; i < perProducer; i++) {
                        while (!q.offer((long) index << 32 | i, Duration.ofSeconds(5))) {
                            Thread.yield();
                        }
                    }
                } else {
                    while (received.get() < 2 * perProducer) {
                        OptionalLong v = q.poll(Duration.ofSeconds(5));
                        if (v.isPresent()) {
                            got.add(v.getAsLong());
                            received.incrementAndGet();
                        } else {
                            Thread.yield();
                        }
                    }
                }
            });
            assertEquals(2 * perProducer, got.stream().distinct().count(), "every live value out once while one producer is frozen");
            assertTrue(frozen.releaseAndAwait(freeze), "released, its claim fails once, it retakes a ticket and adds its value");
            try (ComputeThread t = c.thread(2)) {
                MpmcBoundedQueue q = MpmcBoundedQueue.attach(t, ptr);
                assertEquals(OptionalLong.of(FROZEN_VALUE), q.poll(WAIT));
                assertTrue(q.poll(WAIT).isEmpty());
            }
        }
    }

    @Test
    void shouldTimeConsumersOutAndKeepFullExactWhenAProducerIsFrozenBetweenItsClaimAndItsValue() throws Exception {
        int capacity = 4;
        try (TestCluster c = cluster()) {
            long ptr = create(c, capacity);
            FrozenCaller<MpmcBoundedQueue, Boolean> frozen = producer(c, ptr);
            // Before its 4th work request: after the READs of the slot and the block header and its claim.
            SimFreeze freeze = frozen.freezeAfter(c, 3, Opcode.WRITE);
            int[] offered = new int[2];
            int[] timedOut = new int[2];
            c.runOnThreads(new int[] {0, 2, 0, 2}, (index, t) -> {
                MpmcBoundedQueue q = MpmcBoundedQueue.attach(t, ptr);
                if (index < 2) {
                    for (int i = 0; i < 20; i++) {
                        if (q.offer(100 * (index + 1) + i, Duration.ofMillis(100))) {
                            offered[index]++;
                        }
                    }
                } else {
                    for (int i = 0; i < 3; i++) {
                        assertThrows(QueueTimeoutException.class, () -> q.poll(Duration.ofMillis(100)),
                                "ticket 0's producer is frozen: the consumers wait for it until their deadline");
                        timedOut[index - 2]++;
                    }
                }
            });
            assertEquals(capacity - 1, offered[0] + offered[1], "the live producers filled the other slots, then saw it full");
            assertEquals(3, timedOut[0]);
            assertEquals(3, timedOut[1]);
            assertTrue(frozen.releaseAndAwait(freeze), "released, the frozen offer completes");
            try (ComputeThread t = c.thread(2)) {
                MpmcBoundedQueue q = MpmcBoundedQueue.attach(t, ptr);
                assertEquals(OptionalLong.of(FROZEN_VALUE), q.poll(WAIT), "the frozen producer's ticket comes first");
                List<Long> rest = new ArrayList<>();
                for (OptionalLong v = q.poll(WAIT); v.isPresent(); v = q.poll(WAIT)) {
                    rest.add(v.getAsLong());
                }
                assertEquals(capacity - 1, rest.size(), "every live value once, the timed-out polls took nothing");
                assertEquals(capacity - 1, rest.stream().distinct().count());
            }
        }
    }

    @Test
    void shouldLetTheNextLapsProducerFreeTheSlotWhenAConsumerIsFrozenBetweenItsClaimAndItsRelease() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr = create(c, 2);
            try (ComputeThread t = c.thread(2)) {
                MpmcBoundedQueue q = MpmcBoundedQueue.attach(t, ptr);
                assertTrue(q.offer(1, WAIT));
                assertTrue(q.offer(2, WAIT));
            }
            FrozenCaller<MpmcBoundedQueue, OptionalLong> frozen = consumer(c, ptr);
            // After the READs of the slot and the block header, and its claim.
            SimFreeze freeze = frozen.freezeAfter(c, 3, Opcode.COMPARE_AND_SWAP);
            try (ComputeThread t = c.thread(2)) {
                MpmcBoundedQueue q = MpmcBoundedQueue.attach(t, ptr);
                assertEquals(OptionalLong.of(2), q.poll(WAIT), "later tickets' consumers are not held up");
                assertTrue(q.poll(WAIT).isEmpty(), "both tickets are claimed: exactly empty");
                assertTrue(q.offer(3, Duration.ZERO), "ticket 2 reuses the frozen consumer's slot: its producer frees it, without waiting");
                assertTrue(q.offer(4, Duration.ZERO));
                assertFalse(q.offer(5, Duration.ZERO), "full");
                assertEquals(OptionalLong.of(3), q.poll(WAIT));
            }
            assertEquals(OptionalLong.of(1), frozen.releaseAndAwait(freeze), "released, the frozen poll returns its ticket's value");
            try (ComputeThread t = c.thread(2)) {
                MpmcBoundedQueue q = MpmcBoundedQueue.attach(t, ptr);
                assertEquals(OptionalLong.of(4), q.poll(WAIT), "the frozen consumer's late release changed nothing");
                assertTrue(q.poll(WAIT).isEmpty());
                for (long v = 6; v < 12; v++) {
                    assertTrue(q.offer(v, WAIT));
                    assertEquals(OptionalLong.of(v), q.poll(WAIT));
                }
            }
        }
    }
}
