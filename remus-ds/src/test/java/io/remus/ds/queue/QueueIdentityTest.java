package io.remus.ds.queue;

import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.BlockHeader;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The identity of the queues' roots: an attach on another kind of structure's root or on a block that is no
 * structure is a {@link WrongStructureException} naming both kinds, an attach on a destroyed queue is a
 * {@link ClosedQueueException}, of two destroys exactly one frees the queue and the allocator stays sound, and
 * calls after a destroy (on the destroying handle, and on other handles, also those whose calls read only slots,
 * entries and cells, and also once the block is a new queue's) are {@link ClosedQueueException}, never the freed
 * memory's old values nor the new queue's. The queues live on node 0; the handles that attach, destroy second or
 * race are on nodes 1 and 2 (and, for the calls that read no root word, also on node 0).
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

    private static void assertWrong(StructureKind expected, StructureKind found, Executable attach) {
        WrongStructureException e = assertThrows(WrongStructureException.class, attach);
        assertEquals(expected, e.expected(), e.getMessage());
        assertEquals(found, e.found(), e.getMessage());
        assertTrue(e.getMessage().contains(expected.typeName()), e.getMessage());
    }

    private static void assertClosed(Executable call, long ptr) {
        ClosedQueueException e = assertThrows(ClosedQueueException.class, call);
        assertTrue(e.getMessage().contains(RemotePtr.toString(ptr)), e.getMessage());
    }

    /**
     * Runs {@code calls}, each of which must throw {@link ClosedQueueException}, and checks that they changed no word
     * of the {@code bytes} bytes at {@code ptr}.
     */
    private static void assertClosedAndUntouched(TestCluster c, long ptr, long bytes, Executable... calls) {
        long[] before = c.raw(ptr, bytes).toArray(ValueLayout.JAVA_LONG);
        for (Executable call : calls) {
            assertClosed(call, ptr);
        }
        assertArrayEquals(before, c.raw(ptr, bytes).toArray(ValueLayout.JAVA_LONG),
                "the calls changed no word at " + RemotePtr.toString(ptr));
    }

    /**
     * The destroyed queue at {@code ptr} keeps its block while its last handle is open; {@code closeLast} closes that
     * handle, which frees it.
     */
    private static void assertKeptUntilTheLastHandleCloses(ComputeThread t, long ptr, Runnable closeLast) {
        long headerAt = BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES));
        long header = t.read(headerAt);
        assertEquals(BlockHeader.ALLOCATED, BlockHeader.state(header), "a handle is open: the block stays allocated");
        closeLast.run();
        assertEquals(BlockHeader.FREE, BlockHeader.state(t.read(headerAt)), "the last handle's close freed it");
    }

    /** Two threads on nodes 1 and 2 attach to the queue {@code create} made and destroy it at once: exactly one wins. */
    private static void raceDestroys(TestCluster c, long ptr, Function<ComputeThread, Runnable> attach)
            throws InterruptedException {
        AtomicInteger won = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        CyclicBarrier attached = new CyclicBarrier(2);
        c.runOnThreads(new int[] {1, 2}, (i, t) -> {
            Runnable destroy = attach.apply(t);
            attached.await(30, TimeUnit.SECONDS);
            try {
                destroy.run();
                won.incrementAndGet();
            } catch (ClosedQueueException e) {
                closed.incrementAndGet();
            }
        });
        assertEquals(1, won.get(), "exactly one of two racing destroys frees the queue at " + RemotePtr.toString(ptr));
        assertEquals(1, closed.get(), "the other gets ClosedQueueException");
    }

    // ------------------------------------------------------------------------------------ MpmcBoundedQueue

    @ParameterizedTest
    @MethodSource("fabrics")
    void boundedQueueRefusesAnScqRootAndABlockThatIsNoStructure(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread other = c.thread(1)) {
            MpmcScqQueue scq = MpmcScqQueue.create(home, 4);
            assertWrong(StructureKind.MPMC_BOUNDED_QUEUE, StructureKind.MPMC_SCQ_QUEUE,
                    () -> MpmcBoundedQueue.attach(other, scq.ptr()));
            long plain = c.block(HOME, 64);
            assertWrong(StructureKind.MPMC_BOUNDED_QUEUE, null, () -> MpmcBoundedQueue.attach(other, plain));
            assertTrue(scq.offer(3));
            assertEquals(OptionalLong.of(3), MpmcScqQueue.attach(other, scq.ptr()).poll(), "the SCQ is untouched");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void boundedQueueIsClosedForEveryHandleOnceDestroyed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread one = c.thread(1);
             ComputeThread two = c.thread(2)) {
            MpmcBoundedQueue q = MpmcBoundedQueue.create(home, 1);
            MpmcBoundedQueue empty = MpmcBoundedQueue.create(home, 2);
            assertTrue(q.offer(41, PATIENCE));
            MpmcBoundedQueue full = MpmcBoundedQueue.attach(one, q.ptr());
            MpmcBoundedQueue drained = MpmcBoundedQueue.attach(two, empty.ptr());
            q.destroy();
            empty.destroy();
            assertClosed(() -> MpmcBoundedQueue.attach(two, q.ptr()), q.ptr());
            assertClosed(() -> full.offer(42, PATIENCE), q.ptr());
            assertClosed(() -> drained.poll(Duration.ZERO), empty.ptr());
            assertClosed(() -> q.offer(1, PATIENCE), q.ptr());
            assertClosed(() -> q.poll(PATIENCE), q.ptr());
            assertClosed(q::destroy, q.ptr());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void boundedQueueIsFreedByOneOfTwoDestroys(Function<SimOptions, Fabric> make) throws InterruptedException {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread other = c.thread(1)) {
            MpmcBoundedQueue q = MpmcBoundedQueue.create(home, 4);
            MpmcBoundedQueue second = MpmcBoundedQueue.attach(other, q.ptr());
            q.destroy();
            assertClosed(second::destroy, q.ptr());
            assertClosed(() -> second.poll(Duration.ZERO), q.ptr());
            MpmcBoundedQueue next = MpmcBoundedQueue.create(home, 4);
            assertTrue(MpmcBoundedQueue.attach(other, next.ptr()).offer(9, PATIENCE));
            assertEquals(OptionalLong.of(9), next.poll(PATIENCE));
            assertFalse(next.poll(Duration.ZERO).isPresent());
            next.destroy();

            MpmcBoundedQueue raced = MpmcBoundedQueue.create(home, 4);
            raceDestroys(c, raced.ptr(), t -> MpmcBoundedQueue.attach(t, raced.ptr())::destroy);
            MpmcBoundedQueue after = MpmcBoundedQueue.create(home, 4);
            assertTrue(after.offer(5, PATIENCE));
            assertEquals(OptionalLong.of(5), MpmcBoundedQueue.attach(other, after.ptr()).poll(PATIENCE));
        }
    }

    /**
     * A handle whose tail and head are current, on a queue neither empty nor full, reads only slots in its offer
     * and poll: once another handle destroyed the queue, both are closed and write nothing, on node 1 and on the
     * queue's own node; the queue's block stays allocated until that handle closes, which frees it.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void boundedQueueIsClosedForAHandleWithCurrentTicketsAndKeptUntilItCloses(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread one = c.thread(1);
             ComputeThread near = c.thread(HOME)) {
            for (ComputeThread t : new ComputeThread[] {one, near}) {
                MpmcBoundedQueue q = MpmcBoundedQueue.create(home, 4);
                long bytes = MpmcBoundedQueue.bytes(4);
                MpmcBoundedQueue h = MpmcBoundedQueue.attach(t, q.ptr());
                assertTrue(h.offer(1, PATIENCE));
                assertTrue(h.offer(2, PATIENCE));
                assertEquals(OptionalLong.of(1), h.poll(PATIENCE), "the handle's tail and head are current");
                q.destroy();
                assertClosedAndUntouched(c, q.ptr(), bytes, () -> h.offer(3, PATIENCE), () -> h.poll(Duration.ZERO));

                assertKeptUntilTheLastHandleCloses(home, q.ptr(), h::close);
                assertClosedAndUntouched(c, q.ptr(), bytes, () -> h.poll(Duration.ZERO), () -> h.offer(3, PATIENCE));
            }
        }
    }

    // ------------------------------------------------------------------------------------ MpmcScqQueue

    @ParameterizedTest
    @MethodSource("fabrics")
    void scqRefusesABoundedQueueRootAndABlockThatIsNoStructure(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread other = c.thread(1)) {
            MpmcBoundedQueue bounded = MpmcBoundedQueue.create(home, 4);
            assertWrong(StructureKind.MPMC_SCQ_QUEUE, StructureKind.MPMC_BOUNDED_QUEUE,
                    () -> MpmcScqQueue.attach(other, bounded.ptr()));
            MpmcCrashTolerantQueue tolerant = MpmcCrashTolerantQueue.create(home, 4, 2);
            assertWrong(StructureKind.MPMC_SCQ_QUEUE, StructureKind.MPMC_CRASH_TOLERANT_QUEUE,
                    () -> MpmcScqQueue.attach(other, tolerant.ptr()));
            long plain = c.block(HOME, 64);
            assertWrong(StructureKind.MPMC_SCQ_QUEUE, null, () -> MpmcScqQueue.attach(other, plain));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void scqIsClosedForEveryHandleOnceDestroyed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread one = c.thread(1);
             ComputeThread two = c.thread(2)) {
            MpmcScqQueue q = MpmcScqQueue.create(home, 2);
            assertTrue(q.offer(41));
            MpmcScqQueue consumer = MpmcScqQueue.attach(one, q.ptr());
            MpmcScqQueue producer = MpmcScqQueue.attach(two, q.ptr());
            q.destroy();
            assertClosed(() -> MpmcScqQueue.attach(two, q.ptr()), q.ptr());
            assertClosed(consumer::poll, q.ptr());
            assertClosed(() -> producer.offer(42), q.ptr());
            assertClosed(() -> q.offer(1), q.ptr());
            assertClosed(q::poll, q.ptr());
            assertClosed(q::destroy, q.ptr());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void scqIsFreedByOneOfTwoDestroys(Function<SimOptions, Fabric> make) throws InterruptedException {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread other = c.thread(1)) {
            MpmcScqQueue q = MpmcScqQueue.create(home, 4);
            MpmcScqQueue second = MpmcScqQueue.attach(other, q.ptr());
            q.destroy();
            assertClosed(second::destroy, q.ptr());
            assertClosed(second::poll, q.ptr());
            MpmcScqQueue next = MpmcScqQueue.create(home, 4);
            assertTrue(MpmcScqQueue.attach(other, next.ptr()).offer(9));
            assertEquals(OptionalLong.of(9), next.poll());
            next.destroy();

            MpmcScqQueue raced = MpmcScqQueue.create(home, 4);
            raceDestroys(c, raced.ptr(), t -> MpmcScqQueue.attach(t, raced.ptr())::destroy);
            MpmcScqQueue after = MpmcScqQueue.create(home, 4);
            assertTrue(after.offer(5));
            assertEquals(OptionalLong.of(5), MpmcScqQueue.attach(other, after.ptr()).poll());
        }
    }

    // ------------------------------------------------------------------------------------ MpmcCrashTolerantQueue

    @ParameterizedTest
    @MethodSource("fabrics")
    void crashTolerantQueueRefusesABoundedQueueRootAndABlockThatIsNoStructure(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread other = c.thread(1)) {
            MpmcBoundedQueue bounded = MpmcBoundedQueue.create(home, 4);
            assertWrong(StructureKind.MPMC_CRASH_TOLERANT_QUEUE, StructureKind.MPMC_BOUNDED_QUEUE,
                    () -> MpmcCrashTolerantQueue.attach(other, bounded.ptr()));
            MpmcScqQueue scq = MpmcScqQueue.create(home, 4);
            assertWrong(StructureKind.MPMC_CRASH_TOLERANT_QUEUE, StructureKind.MPMC_SCQ_QUEUE,
                    () -> MpmcCrashTolerantQueue.attach(other, scq.ptr()));
            long plain = c.block(HOME, 64);
            assertWrong(StructureKind.MPMC_CRASH_TOLERANT_QUEUE, null, () -> MpmcCrashTolerantQueue.attach(other, plain));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void crashTolerantQueueIsClosedForEveryHandleOnceDestroyed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread one = c.thread(1);
             ComputeThread two = c.thread(2)) {
            MpmcCrashTolerantQueue q = MpmcCrashTolerantQueue.create(home, 1, 0);
            MpmcCrashTolerantQueue empty = MpmcCrashTolerantQueue.create(home, 2, 1);
            assertTrue(q.offer(41, PATIENCE));
            MpmcCrashTolerantQueue full = MpmcCrashTolerantQueue.attach(one, q.ptr());
            MpmcCrashTolerantQueue drained = MpmcCrashTolerantQueue.attach(two, empty.ptr());
            q.destroy();
            empty.destroy();
            assertClosed(() -> MpmcCrashTolerantQueue.attach(two, q.ptr()), q.ptr());
            assertClosed(() -> full.offer(42, PATIENCE), q.ptr());
            assertClosed(() -> drained.poll(Duration.ZERO), empty.ptr());
            assertClosed(() -> q.offer(1, PATIENCE), q.ptr());
            assertClosed(() -> q.poll(PATIENCE), q.ptr());
            assertClosed(q::destroy, q.ptr());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void crashTolerantQueueIsFreedByOneOfTwoDestroys(Function<SimOptions, Fabric> make) throws InterruptedException {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread other = c.thread(1)) {
            MpmcCrashTolerantQueue q = MpmcCrashTolerantQueue.create(home, 4, 1);
            MpmcCrashTolerantQueue second = MpmcCrashTolerantQueue.attach(other, q.ptr());
            q.destroy();
            assertClosed(second::destroy, q.ptr());
            assertClosed(() -> second.poll(Duration.ZERO), q.ptr());
            MpmcCrashTolerantQueue next = MpmcCrashTolerantQueue.create(home, 4, 1);
            assertTrue(MpmcCrashTolerantQueue.attach(other, next.ptr()).offer(9, PATIENCE));
            assertEquals(OptionalLong.of(9), next.poll(PATIENCE));
            next.destroy();

            MpmcCrashTolerantQueue raced = MpmcCrashTolerantQueue.create(home, 4, 1);
            raceDestroys(c, raced.ptr(), t -> MpmcCrashTolerantQueue.attach(t, raced.ptr())::destroy);
            MpmcCrashTolerantQueue after = MpmcCrashTolerantQueue.create(home, 4, 1);
            assertTrue(after.offer(5, PATIENCE));
            assertEquals(OptionalLong.of(5), MpmcCrashTolerantQueue.attach(other, after.ptr()).poll(PATIENCE));
        }
    }

    /**
     * A handle whose tickets on both rings are current, on a queue neither empty nor full, reads only entries and
     * cells in its offer and poll: once another handle destroyed the queue, both are closed and write nothing, on
     * node 1 and on the queue's own node; the queue's block stays allocated until that handle closes, which frees
     * it.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void crashTolerantQueueIsClosedForAHandleWithCurrentTicketsAndKeptUntilItCloses(
            Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread home = c.thread(HOME); ComputeThread one = c.thread(1);
             ComputeThread near = c.thread(HOME)) {
            for (ComputeThread t : new ComputeThread[] {one, near}) {
                MpmcCrashTolerantQueue q = MpmcCrashTolerantQueue.create(home, 4, 0);
                long bytes = MpmcCrashTolerantQueue.bytes(4, 4);
                MpmcCrashTolerantQueue h = MpmcCrashTolerantQueue.attach(t, q.ptr());
                assertTrue(h.offer(1, PATIENCE));
                assertTrue(h.offer(2, PATIENCE));
                assertEquals(OptionalLong.of(1), h.poll(PATIENCE), "the handle's tickets are current");
                q.destroy();
                assertClosedAndUntouched(c, q.ptr(), bytes, () -> h.offer(3, PATIENCE), () -> h.poll(Duration.ZERO));

                assertKeptUntilTheLastHandleCloses(home, q.ptr(), h::close);
                assertClosedAndUntouched(c, q.ptr(), bytes, () -> h.poll(Duration.ZERO), () -> h.offer(3, PATIENCE));
            }
        }
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
            MpmcBoundedQueueTest.Ops before = MpmcBoundedQueueTest.Ops.of(two);
            SpscRingBuffer.Producer next = SpscRingBuffer.producer(two, consumer.ptr());
            assertEquals(new MpmcBoundedQueueTest.Ops(4, 2, 0, 2, 0), before.since(two),
                    "producer: READ of the identity and the header, compare-and-swap of the handles word, compare-and-swap"
                            + " of the claim, READ through the head");
            assertEquals(2, next.offered(), "the tail the first producer left");
            before = MpmcBoundedQueueTest.Ops.of(two);
            assertTrue(next.offer(MemorySegment.ofArray(new long[] {3})));
            assertEquals(new MpmcBoundedQueueTest.Ops(1, 1, 2, 0, 0), before.since(two),
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
