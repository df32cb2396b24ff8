package io.remus.ds.queue;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static io.remus.ds.queue.QueueIdentityAssertions.assertClosed;
import static io.remus.ds.queue.QueueIdentityAssertions.assertKeptUntilTheLastHandleCloses;
import static io.remus.ds.queue.QueueIdentityAssertions.assertWrong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The identity of the ring buffer's root: a producer on another kind of structure's root or on a block that is no
 * structure is a {@link WrongStructureException} naming both kinds and claims nothing, a producer checks the ring
 * before its claim, and calls after a destroy, on the consumer and on the producer, are {@link ClosedQueueException},
 * never the freed memory's old values; the block stays allocated until the producer closes. The ring lives on node
 * 0; the producers are on nodes 1 and 2. The MPMC queues' identity is part of their contract
 * ({@link MpmcQueueContractTest}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class QueueIdentityTest {
    static final int HOME = 0;
    static final Duration PATIENCE = Duration.ofSeconds(5);

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    private static TestCluster cluster(Function<SimOptions, Fabric> make) {
        return new TestCluster(make, SimOptions.defaults(), 3, b -> { });
    }

    // ------------------------------------------------------------------------------------ SpscRingBuffer

    @ParameterizedTest
    @MethodSource("fabrics")
    void ringRefusesABoundedQueueRootAndABlockThatIsNoStructureBeforeClaimingAnything(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread other = c.thread(1)) {
            MpmcBoundedQueue bounded = MpmcBoundedQueue.create(home, 4);
            assertWrong(StructureKind.SPSC_RING_BUFFER, StructureKind.MPMC_BOUNDED_QUEUE,
                    () -> SpscRingBuffer.producer(other, bounded.ptr()));
            long plain = c.block(HOME, 64);
            assertWrong(StructureKind.SPSC_RING_BUFFER, null, () -> SpscRingBuffer.producer(other, plain));
            MpmcBoundedQueue attached = MpmcBoundedQueue.attach(other, bounded.ptr());
            assertTrue(attached.offer(7, PATIENCE), "the queue's tail word was not claimed as a ring's");
            assertEquals(OptionalLong.of(7), bounded.poll(PATIENCE));
            assertEquals(0L, c.raw(plain, 64).toArray(ValueLayout.JAVA_LONG)[1], "nothing written");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void ringProducerChecksTheRingBeforeItsClaimAndReadsTheTailAndHeadAfter(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread one = c.thread(1);
             ComputeThread two = c.thread(2)) {
            SpscRingBuffer.Consumer consumer = SpscRingBuffer.create(home, 2, 8);
            try (SpscRingBuffer.Producer first = SpscRingBuffer.producer(one, consumer.ptr())) {
                assertTrue(first.offer(MemorySegment.ofArray(new long[] {1})));
                assertTrue(first.offer(MemorySegment.ofArray(new long[] {2})));
            }
            MemorySegment destination = MemorySegment.ofArray(new long[1]);
            assertEquals(8, consumer.poll(destination));
            assertEquals(8, consumer.poll(destination));
            MpmcQueueContractTest.Ops before = MpmcQueueContractTest.Ops.of(two);
            SpscRingBuffer.Producer next = SpscRingBuffer.producer(two, consumer.ptr());
            assertEquals(new MpmcQueueContractTest.Ops(4, 2, 0, 2, 0), before.since(two),
                    "producer: READ of the identity and the header, compare-and-swap of the handles word, compare-and-swap"
                            + " of the claim, READ through the head");
            assertEquals(2, next.offered(), "the tail the first producer left");
            before = MpmcQueueContractTest.Ops.of(two);
            assertTrue(next.offer(MemorySegment.ofArray(new long[] {3})));
            assertEquals(new MpmcQueueContractTest.Ops(1, 1, 2, 0, 0), before.since(two),
                    "the head read after the claim says the ring has room: no READ of the head, only the handles word's");
            next.close();
            assertEquals(8, consumer.poll(destination));
            assertEquals(3L, destination.getAtIndex(ValueLayout.JAVA_LONG, 0));
            consumer.destroy();
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void ringIsClosedForTheConsumerAndTheProducerOnceDestroyedAndKeptUntilTheProducerCloses(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread one = c.thread(1);
             ComputeThread two = c.thread(2)) {
            SpscRingBuffer.Consumer consumer = SpscRingBuffer.create(home, 1, 8);
            SpscRingBuffer.Producer producer = SpscRingBuffer.producer(one, consumer.ptr());
            MemorySegment message = MemorySegment.ofArray(new long[] {41});
            assertTrue(producer.offer(message), "the ring's one slot");
            consumer.destroy();
            assertClosed(() -> SpscRingBuffer.producer(two, consumer.ptr()), consumer.ptr());
            assertClosed(() -> producer.offer(message), consumer.ptr());
            MemorySegment destination = MemorySegment.ofArray(new long[1]);
            assertClosed(() -> consumer.poll(destination), consumer.ptr());
            assertEquals(0L, destination.getAtIndex(ValueLayout.JAVA_LONG, 0), "no old message");
            assertClosed(consumer::destroy, consumer.ptr());
            assertKeptUntilTheLastHandleCloses(home, consumer.ptr(), producer::close);

            SpscRingBuffer.Consumer roomy = SpscRingBuffer.create(home, 4, 8);
            SpscRingBuffer.Producer cached = SpscRingBuffer.producer(one, roomy.ptr());
            assertTrue(cached.offer(message));
            roomy.destroy();
            assertClosed(() -> cached.offer(message), roomy.ptr());
            assertKeptUntilTheLastHandleCloses(home, roomy.ptr(), cached::close);

            SpscRingBuffer.Consumer next = SpscRingBuffer.create(home, 2, 8);
            try (SpscRingBuffer.Producer p = SpscRingBuffer.producer(one, next.ptr())) {
                assertTrue(p.offer(MemorySegment.ofArray(new long[] {9})));
            }
            assertEquals(8, next.poll(destination));
            assertEquals(9L, destination.getAtIndex(ValueLayout.JAVA_LONG, 0));
            next.destroy();
        }
    }
}
