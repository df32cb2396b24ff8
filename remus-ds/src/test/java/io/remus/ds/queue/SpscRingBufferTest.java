package io.remus.ds.queue;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Verdict;
import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.CorruptedMemoryException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.Straddles;
import io.remus.core.testing.TestCluster;
import io.remus.ds.object.BoundedContainerSpec;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SpscRingBuffer}: messages in order across many wraps, full and empty, the per-call RDMA
 * operations (offer: 2 WRITEs, 3 round trips with the head READ; poll: none), typed errors, one
 * producer at a time, and linearizable histories of a producer on another node racing the consumer,
 * with a broken twin (sequence word written before the message) that the same check catches.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SpscRingBufferTest {
    private static final int CONSUMER_NODE = 0;
    private static final int PRODUCER_NODE = 1;
    private static final int SLOTS = 3;
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /** Messages per history run. */
    int historyMessages() {
        return 300;
    }

    /** Torn 8-byte stores and yields inside transfers: what a poll racing an arriving message could see. */
    private static SimOptions hostile() {
        return SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true);
    }

    private static MemorySegment message(int length, long word) {
        MemorySegment m = MemorySegment.ofArray(new byte[length]);
        for (int i = 0; i < length; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (word + i));
        }
        return m;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldDeliverEveryMessageInOrderWhenTheRingWrapsManyTimes(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> { });
             ComputeThread ct = c.thread(CONSUMER_NODE); ComputeThread pt = c.thread(PRODUCER_NODE)) {
            SpscRingBuffer.Consumer consumer = SpscRingBuffer.create(ct, 4, 40);
            MemorySegment into = MemorySegment.ofArray(new byte[40]);
            assertEquals(-1, consumer.poll(into), "a new ring is empty");
            try (SpscRingBuffer.Producer producer = SpscRingBuffer.producer(pt, consumer.ptr())) {
                long sent = 0;
                long received = 0;
                while (received < 50) {
                    while (producer.offer(message((int) (1 + sent % 40), sent))) {
                        sent++;
                    }
                    assertEquals(received + 4, sent, "the ring takes exactly its slots before it is full");
                    for (int k = 0; k < 1 + received % 4; k++) {
                        int n = consumer.poll(into);
                        assertEquals(1 + received % 40, n, "message " + received + "'s length");
                        assertEquals(message(n, received).asByteBuffer(), into.asSlice(0, n).asByteBuffer(), "message " + received);
                        received++;
                    }
                }
            }
            consumer.destroy();
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCostTwoWritesPerOfferAndNoRdmaPerPoll(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> { });
             ComputeThread ct = c.thread(CONSUMER_NODE); ComputeThread pt = c.thread(PRODUCER_NODE)) {
            SpscRingBuffer.Consumer consumer = SpscRingBuffer.create(ct, 2, 16);
            MemorySegment into = MemorySegment.ofArray(new byte[16]);
            try (SpscRingBuffer.Producer producer = SpscRingBuffer.producer(pt, consumer.ptr())) {
                for (int i = 0; i < 2; i++) {
                    long rt = pt.roundTrips();
                    long writes = pt.postedOperations(Opcode.WRITE);
                    long reads = pt.postedOperations(Opcode.READ);
                    assertTrue(producer.offer(message(16, i)));
                    assertEquals(2, pt.roundTrips() - rt, "offer with room: 2 round trips");
                    assertEquals(2, pt.postedOperations(Opcode.WRITE) - writes, "offer: the message and its sequence word");
                    assertEquals(0, pt.postedOperations(Opcode.READ) - reads, "offer with room known: no READ");
                }
                long rt = pt.roundTrips();
                assertFalse(producer.offer(message(16, 2)), "full");
                assertEquals(1, pt.roundTrips() - rt, "a full ring costs one READ of the head");
                long consumerOps = ct.roundTrips();
                assertEquals(16, consumer.poll(into));
                assertEquals(consumerOps, ct.roundTrips(), "poll posts no RDMA operation");
                rt = pt.roundTrips();
                long reads = pt.postedOperations(Opcode.READ);
                assertTrue(producer.offer(message(16, 2)));
                assertEquals(3, pt.roundTrips() - rt, "offer after the cached head said full: READ of the head, then 2 WRITEs");
                assertEquals(1, pt.postedOperations(Opcode.READ) - reads);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseBadInputAndASecondProducerWithTypedErrors(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> { });
             ComputeThread ct = c.thread(CONSUMER_NODE); ComputeThread pt = c.thread(PRODUCER_NODE)) {
            assertTrue(assertThrows(BadArgumentException.class, () -> SpscRingBuffer.create(ct, 0, 8)).getMessage().contains("got 0"));
            assertTrue(assertThrows(BadArgumentException.class, () -> SpscRingBuffer.create(ct, 4, 0)).getMessage().contains("got 0"));
            assertTrue(assertThrows(BadArgumentException.class, () -> SpscRingBuffer.create(ct, 1 << 16, 1 << 10)).getMessage()
                    .contains("more than one allocation"));
            SpscRingBuffer.Consumer consumer = SpscRingBuffer.create(ct, 4, 8);
            assertTrue(assertThrows(BadArgumentException.class, () -> consumer.poll(MemorySegment.ofArray(new byte[7])))
                    .getMessage().contains("7 bytes"));
            SpscRingBuffer.Producer producer = SpscRingBuffer.producer(pt, consumer.ptr());
            assertTrue(assertThrows(BadArgumentException.class, () -> producer.offer(message(9, 0))).getMessage().contains("9 bytes"));
            assertTrue(assertThrows(BadArgumentException.class, () -> producer.offer(MemorySegment.ofArray(new byte[0])))
                    .getMessage().contains("0 bytes"));
            assertThrows(ProducerClaimedException.class, () -> SpscRingBuffer.producer(ct, consumer.ptr()));
            assertTrue(producer.offer(message(8, 1)));
            producer.close();
            assertThrows(ClosedQueueException.class, () -> producer.offer(message(8, 2)));
            try (SpscRingBuffer.Producer next = SpscRingBuffer.producer(ct, consumer.ptr())) {
                assertEquals(1, next.offered(), "a later producer continues the sequence");
                assertTrue(next.offer(message(8, 2)));
            }
            MemorySegment into = MemorySegment.ofArray(new byte[8]);
            assertEquals(8, consumer.poll(into));
            assertEquals(message(8, 1).asByteBuffer(), into.asByteBuffer());
            assertEquals(8, consumer.poll(into));
            assertEquals(message(8, 2).asByteBuffer(), into.asByteBuffer());
            assertEquals(-1, consumer.poll(into));
        }
    }

    /**
     * The simulator with segments across a 4 GiB boundary where the seed's history allocates ({@link Straddles}),
     * so that a word READ torn between two pointers points outside every segment (the queue follows no pointer read
     * from shared memory: its histories check as on any placement).
     */
    private static Function<SimOptions, Fabric> straddled(long seed) {
        return options -> new SimFabric(Straddles.across(options, seed, 3));
    }

    @Test
    void shouldCheckAsLinearizableWhenSegmentsCrossA4GiBBoundary() throws InterruptedException {
        for (long seed = 1; seed <= 4; seed++) {
            Outcome o = raceAndCheck(straddled(seed), seed, false);
            assertEquals(null, o.corruption(), "seed " + seed);
            assertEquals(Verdict.LINEARIZABLE, o.check().verdict(), "seed " + seed + ": " + o.check());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCheckAsLinearizableWhenTheProducerRacesTheConsumer(Function<SimOptions, Fabric> make) throws InterruptedException {
        for (long seed = 1; seed <= 4; seed++) {
            Outcome o = raceAndCheck(make, seed, false);
            assertEquals(null, o.corruption(), "seed " + seed);
            assertEquals(Verdict.LINEARIZABLE, o.check().verdict(), "seed " + seed + ": " + o.check());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCatchTheBrokenTwinThatPublishesTheSequenceBeforeTheMessage(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        int caught = 0;
        for (long seed = 1; seed <= 4 && caught == 0; seed++) {
            Outcome o = raceAndCheck(make, seed, true);
            assertEquals(null, o.corruption(), "the twin's messages always have their length: only stale ones can be seen");
            if (o.check().verdict() == Verdict.NOT_LINEARIZABLE) {
                caught++;
            }
        }
        assertTrue(caught > 0, "the checker never caught a consumer reading a message before it arrived");
    }

    /**
     * What a race produced: the consumer's report of a slot whose length was out of range (a message
     * read before it arrived, in the first lap), or else the history's check.
     */
    private record Outcome(String corruption, CheckResult check) {
    }

    /**
     * A producer thread on another node offers {@link #historyMessages()} distinct words (retrying while
     * full) while the consumer thread polls, both recording; the history is checked as a FIFO queue of
     * {@link #SLOTS} words, whose full offers and empty polls are operations too.
     */
    private Outcome raceAndCheck(Function<SimOptions, Fabric> make, long seed, boolean broken) throws InterruptedException {
        int messages = historyMessages();
        AtomicReference<String> corruption = new AtomicReference<>();
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder producing = history.recorder(0);
        History.Recorder consuming = history.recorder(1);
        try (TestCluster c = new TestCluster(make, hostile(), 2, b -> { })) {
            long ptr;
            long[] ring = new long[1];
            c.runOnThreads(new int[] {CONSUMER_NODE, PRODUCER_NODE}, (index, t) -> {
                if (index == 0) {
                    SpscRingBuffer.Consumer consumer = SpscRingBuffer.create(t, SLOTS, 8);
                    synchronized (ring) {
                        ring[0] = consumer.ptr();
                        ring.notifyAll();
                    }
                    MemorySegment into = MemorySegment.ofArray(new byte[8]);
                    int received = 0;
                    while (received < messages) {
                        int op = consuming.invoke(BoundedContainerSpec.TAKE);
                        int n;
                        try {
                            n = consumer.poll(into);
                        } catch (CorruptedMemoryException e) {
                            corruption.set(e.getMessage());
                            return;
                        }
                        if (n < 0) {
                            consuming.respond(op);
                        } else {
                            consuming.respond(op, into.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
                            received++;
                        }
                        if (ThreadLocalRandom.current().nextInt(4) == 0) {
                            Thread.yield();
                        }
                    }
                } else {
                    long p;
                    synchronized (ring) {
                        while (ring[0] == 0) {
                            ring.wait(10_000);
                        }
                        p = ring[0];
                    }
                    MemorySegment m = MemorySegment.ofArray(new byte[8]);
                    SpscRingBuffer.Producer producer = broken ? null : SpscRingBuffer.producer(t, p);
                    SequenceFirstProducer twin = broken ? new SequenceFirstProducer(t, p, SLOTS, 8) : null;
                    for (int i = 0; i < messages; i++) {
                        long v = seed * 1_000_000 + i;
                        m.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, v);
                        boolean ok = false;
                        while (!ok && corruption.get() == null) {
                            int op = producing.invoke(BoundedContainerSpec.PUT, v);
                            ok = broken ? twin.offer(m) : producer.offer(m);
                            producing.respond(op, ok ? 1 : 0);
                            if (!ok) {
                                Thread.yield();
                            }
                        }
                    }
                    if (producer != null) {
                        producer.close();
                    }
                }
            });
            ptr = ring[0];
            assertTrue(ptr != 0);
        }
        if (corruption.get() != null) {
            return new Outcome(corruption.get(), null);
        }
        return new Outcome(null, CHECKER.check(history.operations(), new BoundedContainerSpec(true, SLOTS)));
    }

    /**
     * The broken twin: the ring's layout, but from the second lap on the sequence word is written
     * before the message, so a consumer can see a slot's sequence while its message is still the one
     * of the lap before (the first lap is written in the right order, so that every slot read has a
     * valid length and only the checker can tell).
     */
    private static final class SequenceFirstProducer {
        private final ComputeThread thread;
        private final long ptr;
        private final int slots;
        private final long slotBytes;
        private final MemorySegment staging;
        private long tail;
        private long head;

        SequenceFirstProducer(ComputeThread thread, long ptr, int slots, int maxMessageBytes) {
            this.thread = thread;
            this.ptr = ptr;
            this.slots = slots;
            this.slotBytes = SpscRingBuffer.slotBytes(maxMessageBytes);
            this.staging = MemorySegment.ofArray(new long[(int) ((slotBytes - 8) / 8)]);
        }

        boolean offer(MemorySegment message) {
            if (tail - head >= slots) {
                head = thread.read(ptr + 24);
                if (tail - head >= slots) {
                    return false;
                }
            }
            long slot = ptr + SpscRingBuffer.HEADER_BYTES + (tail % slots) * slotBytes;
            boolean firstLap = tail < slots;
            if (!firstLap) {
                thread.write(slot, tail + 1);
                // As a producer descheduled between the two would: the window the bug opens, wide
                // enough that the polling consumer falls into it however the host schedules.
                LockSupport.parkNanos(1_000_000);
            }
            staging.set(ValueLayout.JAVA_LONG, 0, message.byteSize());
            MemorySegment.copy(message, 0, staging, 8, message.byteSize());
            thread.write(slot + 8, staging.asSlice(0, 8 + message.byteSize()));
            if (firstLap) {
                thread.write(slot, tail + 1);
            }
            tail++;
            return true;
        }
    }
}
