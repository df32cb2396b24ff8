package io.remus.ds.queue;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.core.ComputeThread;
import io.remus.core.WriteOrder;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
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
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SpscRingBuffer}: messages in order across many wraps, full and empty, the per-call RDMA
 * operations (offer: 2 WRITEs in 1 round trip, or 2 with {@link WriteOrder#COMPLETION}, one more with the
 * head READ; poll: none), typed errors, one producer at a time, and linearizable histories of a producer
 * on another node racing the consumer, also where an offer's sequence word lands before its message (a
 * twin producer that writes them in that order, on every fabric; the simulator's reordered WRITEs): the
 * consumer's guard then counts order violations and takes no stale message, and a twin consumer without
 * the guard is caught by the same check.
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

    /**
     * Empty polls in a row a race's consumer makes (and records) before it waits for the producer's next offer to
     * return, where the race has millisecond windows (a poll every 50 us falls into each): with the full offers
     * below, a history holds at most {@code (2 + EMPTY_POLLS_WITH_WINDOWS + FULL_OFFERS) * historyMessages()}
     * operations however the host schedules the two threads.
     */
    private static final int EMPTY_POLLS_WITH_WINDOWS = 64;
    /** Empty polls in a row before the consumer waits, where the race has no windows. */
    private static final int EMPTY_POLLS = 8;
    /** Full offers in a row a race's producer makes (and records) before it waits for the consumer's next take. */
    private static final int FULL_OFFERS = 8;
    /** The longest a race's thread waits for the other's next call to return. */
    private static final Duration PEER_WAIT = Duration.ofSeconds(60);

    /** Waits, parking, until {@code done}; fails past {@link #PEER_WAIT}. */
    private static void awaitPeer(BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + PEER_WAIT.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited " + PEER_WAIT + " for " + what);
            }
            LockSupport.parkNanos(50_000);
        }
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
    void shouldDestroyTheRingAndRefuseLaterCallsWhenTheConsumerCloses(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> { });
             ComputeThread ct = c.thread(CONSUMER_NODE); ComputeThread pt = c.thread(PRODUCER_NODE)) {
            MemorySegment into = MemorySegment.ofArray(new byte[8]);
            SpscRingBuffer.Producer producer;
            long ptr;
            try (SpscRingBuffer.Consumer consumer = SpscRingBuffer.create(ct, 2, 8)) {
                ptr = consumer.ptr();
                producer = SpscRingBuffer.producer(pt, ptr);
                assertTrue(producer.offer(message(8, 1)));
                assertEquals(8, consumer.poll(into));
                consumer.close();
                consumer.close();
                assertThrows(ClosedQueueException.class, () -> consumer.poll(into), "a poll after the close");
                assertThrows(ClosedQueueException.class, consumer::destroy, "a destroy after the close");
            }
            assertThrows(ClosedQueueException.class, () -> producer.offer(message(8, 2)),
                    "the producer learns that the consumer's close destroyed the ring");
            producer.close();
            assertThrows(ClosedQueueException.class, () -> SpscRingBuffer.producer(pt, ptr),
                    "the producer's close, the ring's last handle, freed it");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCostTwoWritesInOneRoundTripPerOfferAndNoRdmaPerPoll(Function<SimOptions, Fabric> make) {
        assertOfferCosts(make, WriteOrder.ONE_DOORBELL, 1);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCostTwoRoundTripsPerOfferWithTheCompletionOrder(Function<SimOptions, Fabric> make) {
        assertOfferCosts(make, WriteOrder.COMPLETION, 2);
    }

    private static void assertOfferCosts(Function<SimOptions, Fabric> make, WriteOrder order, int roundTrips) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 2, b -> { });
             ComputeThread ct = c.thread(CONSUMER_NODE); ComputeThread pt = c.thread(PRODUCER_NODE)) {
            SpscRingBuffer.Consumer consumer = SpscRingBuffer.create(ct, 2, 16);
            MemorySegment into = MemorySegment.ofArray(new byte[16]);
            try (SpscRingBuffer.Producer producer = SpscRingBuffer.producer(pt, consumer.ptr(), order)) {
                assertEquals(order, producer.writeOrder());
                for (int i = 0; i < 2; i++) {
                    long rt = pt.roundTrips();
                    long writes = pt.postedOperations(Opcode.WRITE);
                    long reads = pt.postedOperations(Opcode.READ);
                    assertTrue(producer.offer(message(16, i)));
                    assertEquals(roundTrips, pt.roundTrips() - rt, order + ": offer with room");
                    assertEquals(2, pt.postedOperations(Opcode.WRITE) - writes, "offer: the message and its sequence word");
                    assertEquals(1, pt.postedOperations(Opcode.READ) - reads, "offer with room known: only the handles word's READ");
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
                assertEquals(1 + roundTrips, pt.roundTrips() - rt, order + ": offer after the cached head said full");
                assertEquals(2, pt.postedOperations(Opcode.READ) - reads, "the head's READ, then the handles word's");
            }
            assertEquals(0, consumer.orderViolations(), "WRITEs that land in order are no violation");
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
            Outcome o = raceAndCheck(straddled(seed), hostile(), seed, Producing.LIBRARY, false);
            assertEquals(null, o.corruption(), "seed " + seed);
            assertEquals(Verdict.LINEARIZABLE, o.check().verdict(), "seed " + seed + ": " + o.check());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCheckAsLinearizableWhenTheProducerRacesTheConsumer(Function<SimOptions, Fabric> make) throws InterruptedException {
        for (long seed = 1; seed <= 4; seed++) {
            Outcome o = raceAndCheck(make, hostile(), seed, Producing.LIBRARY, false);
            assertEquals(null, o.corruption(), "seed " + seed);
            assertEquals(Verdict.LINEARIZABLE, o.check().verdict(), "seed " + seed + ": " + o.check());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldTakeNoStaleMessageAndCountTheViolationsWhenTheSequenceLandsFirst(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        long violations = 0;
        for (long seed = 1; seed <= 4 && violations == 0; seed++) {
            Outcome o = raceAndCheck(make, hostile(), seed, Producing.SEQUENCE_FIRST, false);
            assertEquals(null, o.corruption(), "seed " + seed);
            assertEquals(Verdict.LINEARIZABLE, o.check().verdict(), "seed " + seed + ": " + o.check());
            violations += o.violations();
        }
        assertTrue(violations > 0, "the consumer never saw a sequence word before its message: the guard was not exercised");
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCatchTheTwinConsumerWithoutTheGuardWhenTheSequenceLandsFirst(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        assertTwinCaught(make, SimOptions.defaults(), Producing.SEQUENCE_FIRST);
    }

    /** The simulator with the WRITEs of one doorbell applied later one first, and hostile stores and loads. */
    private static SimOptions reordering() {
        return hostile().withReorderWrites(true);
    }

    @Test
    void shouldTakeNoStaleMessageAndCountTheViolationsWhenTheWritesOfOneDoorbellLandOutOfOrder()
            throws InterruptedException {
        long violations = 0;
        for (long seed = 1; seed <= 4 && violations == 0; seed++) {
            Outcome o = raceAndCheck(SimFabric::new, reordering(), seed, Producing.LIBRARY, false);
            assertEquals(null, o.corruption(), "seed " + seed);
            assertEquals(Verdict.LINEARIZABLE, o.check().verdict(), "seed " + seed + ": " + o.check());
            violations += o.violations();
        }
        assertTrue(violations > 0, "the consumer never saw a sequence word before its message: the guard was not exercised");
    }

    @Test
    void shouldCountNoViolationWithTheCompletionOrderWhenTheWritesOfOneDoorbellLandOutOfOrder()
            throws InterruptedException {
        for (long seed = 1; seed <= 2; seed++) {
            Outcome o = raceAndCheck(SimFabric::new, reordering(), seed, Producing.LIBRARY_COMPLETION, false);
            assertEquals(null, o.corruption(), "seed " + seed);
            assertEquals(Verdict.LINEARIZABLE, o.check().verdict(), "seed " + seed + ": " + o.check());
            assertEquals(0, o.violations(), "seed " + seed + ": the message completed before its sequence was written");
        }
    }

    @Test
    void shouldCatchTheTwinConsumerWithoutTheGuardWhenTheWritesOfOneDoorbellLandOutOfOrder() throws InterruptedException {
        assertTwinCaught(SimFabric::new, reordering(), Producing.LIBRARY);
    }

    private void assertTwinCaught(Function<SimOptions, Fabric> make, SimOptions options, Producing producing)
            throws InterruptedException {
        int caught = 0;
        for (long seed = 1; seed <= 4 && caught == 0; seed++) {
            Outcome o = raceAndCheck(make, options, seed, producing, true);
            if (o.corruption() != null || o.check().verdict() == Verdict.NOT_LINEARIZABLE) {
                caught++;
            }
        }
        assertTrue(caught > 0, "the check never caught a consumer that takes a message whose sequence landed before it");
    }

    /**
     * What a race produced: a consumer's report of a slot whose length was out of range (a message read
     * before it arrived), or else the history's check; and the order violations the consumer counted.
     */
    private record Outcome(String corruption, CheckResult check, long violations) {
    }

    /** Who offers in a race. */
    private enum Producing {
        /** The library's producer, one doorbell per offer. */
        LIBRARY,
        /** The library's producer, the sequence WRITE posted once the message's completed. */
        LIBRARY_COMPLETION,
        /** A twin that writes the sequence word first and the message a millisecond later. */
        SEQUENCE_FIRST
    }

    /**
     * A producer thread on another node offers {@link #historyMessages()} distinct words (retrying while
     * full) while the consumer thread polls, both recording; the history is checked as a FIFO queue of
     * {@link #SLOTS} words, whose full offers and empty polls are operations too. The history is bounded: after
     * {@link #EMPTY_POLLS} ({@link #EMPTY_POLLS_WITH_WINDOWS}) empty polls in a row the consumer waits, unrecorded,
     * until the producer's next offer returned, and after {@link #FULL_OFFERS} full offers in a row the producer
     * waits until the consumer's next take returned; the call after such a wait finds the message or the room.
     * With {@code guardless}, the consumer is {@link GuardlessConsumer}.
     */
    private Outcome raceAndCheck(Function<SimOptions, Fabric> make, SimOptions options, long seed, Producing producing,
                                 boolean guardless) throws InterruptedException {
        int messages = historyMessages();
        AtomicReference<String> corruption = new AtomicReference<>();
        long[] violations = new long[1];
        boolean windows = producing == Producing.SEQUENCE_FIRST || options.reorderWrites();
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder producingRecorder = history.recorder(0);
        History.Recorder consuming = history.recorder(1);
        AtomicLong delivered = new AtomicLong();
        AtomicLong taken = new AtomicLong();
        int emptyPolls = windows ? EMPTY_POLLS_WITH_WINDOWS : EMPTY_POLLS;
        try (TestCluster c = new TestCluster(make, options, 2, b -> { })) {
            long[] ring = new long[1];
            c.runOnThreads(new int[] {CONSUMER_NODE, PRODUCER_NODE}, (index, t) -> {
                if (index == 0) {
                    SpscRingBuffer.Consumer consumer = SpscRingBuffer.create(t, SLOTS, 8);
                    GuardlessConsumer twin = guardless ? new GuardlessConsumer(t, consumer.ptr(), SLOTS, 8) : null;
                    synchronized (ring) {
                        ring[0] = consumer.ptr();
                        ring.notifyAll();
                    }
                    MemorySegment into = MemorySegment.ofArray(new byte[8]);
                    int received = 0;
                    int emptyInARow = 0;
                    try {
                        while (received < messages) {
                            if (emptyInARow >= emptyPolls) {
                                long r = received;
                                awaitPeer(() -> delivered.get() > r, "the producer's offer of message " + r);
                            }
                            int op = consuming.invoke(BoundedContainerSpec.TAKE);
                            int n;
                            try {
                                n = guardless ? twin.poll(into) : consumer.poll(into);
                            } catch (CorruptedMemoryException e) {
                                corruption.set(e.getMessage());
                                return;
                            }
                            if (n < 0) {
                                consuming.respond(op);
                                emptyInARow++;
                                if (windows) {
                                    // Millisecond windows: a poll every 50 us still falls into each, in a history
                                    // short enough to check.
                                    LockSupport.parkNanos(50_000);
                                }
                            } else {
                                consuming.respond(op, into.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
                                received++;
                                taken.set(received);
                                emptyInARow = 0;
                            }
                            if (ThreadLocalRandom.current().nextInt(4) == 0) {
                                Thread.yield();
                            }
                        }
                    } finally {
                        violations[0] = consumer.orderViolations();
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
                    SpscRingBuffer.Producer producer = producing == Producing.SEQUENCE_FIRST ? null
                            : SpscRingBuffer.producer(t, p, producing == Producing.LIBRARY ? WriteOrder.ONE_DOORBELL
                            : WriteOrder.COMPLETION);
                    SequenceFirstProducer twin = producer == null ? new SequenceFirstProducer(t, p, SLOTS, 8) : null;
                    for (int i = 0; i < messages; i++) {
                        long v = seed * 1_000_000 + i;
                        m.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, v);
                        boolean ok = false;
                        int fullInARow = 0;
                        while (!ok && corruption.get() == null) {
                            if (fullInARow >= FULL_OFFERS) {
                                long sent = i;
                                awaitPeer(() -> sent - taken.get() < SLOTS || corruption.get() != null,
                                        "the consumer's take after " + (sent - SLOTS));
                                if (corruption.get() != null) {
                                    break;
                                }
                            }
                            int op = producingRecorder.invoke(BoundedContainerSpec.PUT, v);
                            ok = producer == null ? twin.offer(m) : producer.offer(m);
                            producingRecorder.respond(op, ok ? 1 : 0);
                            if (!ok) {
                                fullInARow++;
                                Thread.yield();
                            }
                        }
                        if (ok) {
                            delivered.set(i + 1);
                        }
                    }
                    if (producer != null) {
                        producer.close();
                    }
                }
            });
            assertTrue(ring[0] != 0);
        }
        if (corruption.get() != null) {
            return new Outcome(corruption.get(), null, violations[0]);
        }
        List<Operation> operations = history.operations();
        assertTrue(operations.size() <= (long) (2 + emptyPolls + FULL_OFFERS) * messages,
                "a history of " + operations.size() + " operations for " + messages + " messages");
        return new Outcome(null, CHECKER.check(operations, new BoundedContainerSpec(true, SLOTS)), violations[0]);
    }

    /**
     * A producer that writes each offer's sequence word first and, a millisecond later (as a producer
     * descheduled between the two would, or a NIC that makes the later WRITE visible first), the check
     * words and the message: the window in which a consumer sees a sequence before its message, wide
     * enough that the polling consumer falls into it however the host schedules.
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
            long length = message.byteSize();
            long check = SpscRingBuffer.check(tail + 1, length);
            long trailer = 8 + SpscRingBuffer.padded(length);
            thread.write(slot, tail + 1);
            LockSupport.parkNanos(1_000_000);
            staging.fill((byte) 0);
            staging.set(ValueLayout.JAVA_LONG, 0, check);
            MemorySegment.copy(message, 0, staging, 8, length);
            staging.set(ValueLayout.JAVA_LONG, trailer, check);
            thread.write(slot + 8, staging.asSlice(0, trailer + 8));
            tail++;
            return true;
        }
    }

    /**
     * The broken twin of {@link SpscRingBuffer.Consumer}: takes a slot as soon as its sequence word is
     * there, without looking at the check words, so it takes whatever message the slot held before.
     */
    private static final class GuardlessConsumer {
        private final MemorySegment ring;
        private final long ptr;
        private final int slots;
        private final long slotBytes;
        private final int maxMessageBytes;
        private long head;

        GuardlessConsumer(ComputeThread thread, long ptr, int slots, int maxMessageBytes) {
            this.slotBytes = SpscRingBuffer.slotBytes(maxMessageBytes);
            this.ring = thread.localSegment(ptr, SpscRingBuffer.HEADER_BYTES + slots * slotBytes);
            this.ptr = ptr;
            this.slots = slots;
            this.maxMessageBytes = maxMessageBytes;
        }

        int poll(MemorySegment destination) {
            long slot = SpscRingBuffer.HEADER_BYTES + (head % slots) * slotBytes;
            if (ring.get(ValueLayout.JAVA_LONG, slot) != head + 1) {
                return -1;
            }
            long length = ring.get(ValueLayout.JAVA_LONG, slot + 8) & 0xFFFF_FFFFL;
            if (length < 1 || length > maxMessageBytes) {
                throw new CorruptedMemoryException(ptr + slot + 8, length, "twin consumer, message " + head + ": length "
                        + length);
            }
            MemorySegment.copy(ring, slot + 16, destination, 0, length);
            head++;
            ring.set(ValueLayout.JAVA_LONG, 24, head);
            return (int) length;
        }
    }
}
