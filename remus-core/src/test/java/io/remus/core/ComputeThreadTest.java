package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.ClosedComputeThreadException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemoteAccessException;
import io.remus.core.error.RemoteOperationException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.ThreadConfinementException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ComputeThreadTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    private static long scratch(ComputeThread t, int node) {
        return RemotePtr.offset(t.segmentBase(node, 1), 4096);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReadWriteCasAndFaaWordsWhenTargetingEveryNode(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            for (int node = 0; node < 3; node++) {
                long w = scratch(t, node);
                t.write(w, 10);
                assertEquals(10, t.read(w));
                assertEquals(10, t.fetchAndAdd(w, 5));
                assertEquals(15, t.compareAndSwap(w, 15, 99));
                assertEquals(99, t.compareAndSwap(w, 15, 7), "a failed CAS returns the current value");
                assertEquals(99, t.read(w, true));
                t.write(w, 1, true);
                assertEquals(1, t.fetchAndAdd(w, -1, true));
                assertEquals(0, t.compareAndSwap(w, 0, 3, true));
                assertEquals(3, t.read(w));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldMoveByteRangesWhenZeroCopyOrCopied(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1); Arena arena = Arena.ofConfined()) {
            for (int node = 0; node < 3; node++) {
                long dst = scratch(t, node);
                MemorySegment buf = t.buffer();
                for (int i = 0; i < 100; i++) {
                    buf.set(ValueLayout.JAVA_BYTE, 3 + i, (byte) (i + node));
                }
                t.write(dst, 3, 100);
                buf.fill((byte) 0);
                t.read(dst, 500, 100);
                for (int i = 0; i < 100; i++) {
                    assertEquals((byte) (i + node), buf.get(ValueLayout.JAVA_BYTE, 500 + i));
                }
                byte[] data = new byte[37];
                for (int i = 0; i < data.length; i++) {
                    data[i] = (byte) (7 * i + node);
                }
                t.write(RemotePtr.offset(dst, 1000), MemorySegment.ofArray(data));
                MemorySegment back = arena.allocate(37);
                t.read(RemotePtr.offset(dst, 1000), back);
                assertArrayEquals(data, back.toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCompleteEveryHandleWhenManyAsyncOperationsAreInFlight(Function<SimOptions, Fabric> make) {
        SimOptions slow = SimOptions.defaults().withExecutionLatencyNanos(200_000).withCompletionDelayNanos(100_000);
        try (TestCluster c = new TestCluster(make, slow, 3, b -> b.opsInFlightPerThread(8)); ComputeThread t = c.thread(0)) {
            long w = scratch(t, 2);
            t.write(w, 0);
            long[] hs = new long[8];
            for (int i = 0; i < 8; i++) {
                hs[i] = t.fetchAndAddAsync(w, 1, false);
            }
            assertThrows(BadArgumentException.class, () -> t.fetchAndAddAsync(w, 1, false));
            long sum = 0;
            for (long h : hs) {
                sum += t.await(h);
            }
            assertEquals(0 + 1 + 2 + 3 + 4 + 5 + 6 + 7, sum);
            long cas = t.compareAndSwapAsync(w, 8, 80, false);
            long rd = t.readWordAsync(w, true);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!t.poll(rd)) {
                assertTrue(System.nanoTime() < deadline);
                Thread.onSpinWait();
            }
            assertEquals(8, t.await(cas));
            assertEquals(80, t.await(rd));
            assertThrows(BadArgumentException.class, () -> t.await(rd), "a handle is used once");
            t.buffer().set(ValueLayout.JAVA_LONG, 16, 1234);
            t.await(t.writeAsync(w, 16, 8, false));
            t.await(t.writeWordAsync(RemotePtr.offset(w, 8), 77, false));
            t.await(t.readAsync(w, 32, 16, true));
            assertEquals(1234, t.buffer().get(ValueLayout.JAVA_LONG, 32));
            assertEquals(77, t.buffer().get(ValueLayout.JAVA_LONG, 40));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldExecuteInOrderWhenPostedAsOneDoorbellBatch(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            for (int node = 0; node < 3; node++) {
                long w = scratch(t, node);
                t.write(w, 5);
                MemorySegment buf = t.buffer();
                buf.set(ValueLayout.JAVA_LONG, 0, 42);
                t.batch()
                        .write(RemotePtr.offset(w, 8), 0, 8)
                        .fetchAndAdd(w, 10, 64)
                        .compareAndSwap(w, 15, 100, 72)
                        .fence().read(w, 80, 16)
                        .execute();
                assertEquals(5, buf.get(ValueLayout.JAVA_LONG, 64));
                assertEquals(15, buf.get(ValueLayout.JAVA_LONG, 72));
                assertEquals(100, buf.get(ValueLayout.JAVA_LONG, 80));
                assertEquals(42, buf.get(ValueLayout.JAVA_LONG, 88));
                assertEquals(0, t.batch().size());
            }
            long w1 = scratch(t, 1);
            assertThrows(BadArgumentException.class, () -> t.batch().read(w1, 0, 8).read(scratch(t, 2), 0, 8));
            t.batch().clear();
            assertThrows(BadArgumentException.class, () -> t.batch().post());
        }
    }

    /** @return iterations of the fence tests (fewer on emulated RDMA) */
    int fenceIterations() {
        return 2_000;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldWriteWhatEarlierReadFetchedWhenWriteIsFenced(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            MemorySegment buf = t.buffer();
            for (int node = 0; node < 3; node++) {
                long a = scratch(t, node);
                long b = RemotePtr.offset(a, 512);
                for (int i = 1; i <= fenceIterations(); i++) {
                    long v = node * 1_000_000L + i;
                    t.write(a, v);
                    buf.set(ValueLayout.JAVA_LONG, 0, -1);
                    t.batch().read(a, 0, 8).fence().write(b, 0, 8).execute();
                    assertEquals(v, t.read(b), "batched fenced WRITE sent the buffer before the READ filled it");
                    long[] handles = new long[8];
                    for (int k = 0; k < 4; k++) {
                        buf.set(ValueLayout.JAVA_LONG, 64 + 8 * k, -1);
                        handles[2 * k] = t.readAsync(a, 64 + 8 * k, 8, false);
                        handles[2 * k + 1] = t.writeAsync(RemotePtr.offset(b, 8 + 8 * k), 64 + 8 * k, 8, true);
                    }
                    for (long h : handles) {
                        t.await(h);
                    }
                    for (int k = 0; k < 4; k++) {
                        assertEquals(v, t.read(RemotePtr.offset(b, 8 + 8 * k)), "async fenced WRITE " + k);
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCompleteFencedReadsBehindAtomicsWhenSeveralAreInFlight(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            for (int node = 0; node < 3; node++) {
                long w = scratch(t, node);
                t.write(w, 0);
                t.write(RemotePtr.offset(w, 8), 0);
                for (int i = 0; i < fenceIterations(); i++) {
                    long faa = t.fetchAndAddAsync(w, 1, false);
                    long read = t.readWordAsync(w, true);
                    long cas = t.compareAndSwapAsync(RemotePtr.offset(w, 8), 0, 0, true);
                    long before = t.await(faa);
                    assertEquals(i, before);
                    assertEquals(before + 1, t.await(read));
                    assertEquals(0, t.await(cas));
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRejectBeforePostingWhenArgumentsAreBad(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long w = scratch(t, 1);
            long seg0End = RemotePtr.offset(t.segmentBase(1, 0), t.segmentLength(1, 0));
            assertThrows(BadArgumentException.class, () -> t.read(RemotePtr.of(3, 4096)), "node outside the cluster");
            assertThrows(BadArgumentException.class, () -> t.read(RemotePtr.of(9000, 4096)), "unknown node");
            assertThrows(BadArgumentException.class, () -> t.compareAndSwap(RemotePtr.offset(w, 4), 0, 1), "misaligned CAS");
            assertThrows(BadArgumentException.class, () -> t.fetchAndAdd(RemotePtr.offset(w, 1), 1), "misaligned FAA");
            assertThrows(BadArgumentException.class, () -> t.batch().fetchAndAdd(RemotePtr.offset(w, 2), 1, 0));
            assertThrows(BadArgumentException.class, () -> t.read(RemotePtr.offset(seg0End, -4), 0, 8), "range leaves segment");
            assertThrows(BadArgumentException.class, () -> t.read(RemotePtr.of(1, 64), 0, 8), "below every segment");
            assertThrows(BadArgumentException.class, () -> t.read(w, 8190, 8), "local range outside buffer");
            assertThrows(BadArgumentException.class, () -> t.write(w, -1, 8), "negative buffer offset");
            assertThrows(BadArgumentException.class, () -> t.read(w, 0, 0), "empty transfer");
            assertThrows(BadArgumentException.class, () -> t.writeLocal(w, 1), "local write to a remote node");
            assertThrows(BadArgumentException.class, () -> t.readLocal(w), "local read of a remote node");
            assertEquals(0, t.batch().size());
            t.write(w, 6);
            assertEquals(6, t.read(w), "the thread still works after rejected calls");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowRemoteAccessExceptionWhenTargetSegmentWasDeregistered(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long gone = scratch(t, 1);
            long kept = RemotePtr.offset(t.segmentBase(1, 0), 4096);
            t.write(gone, 1);
            c.node(1).memoryNode().orElseThrow().segments().get(1).close();
            RemoteAccessException e = assertThrows(RemoteAccessException.class, () -> t.read(gone));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, e.status());
            assertEquals(1, e.nodeId());
            assertThrows(RemoteAccessException.class, () -> t.fetchAndAdd(gone, 1));
            t.write(kept, 8);
            assertEquals(8, t.read(kept), "the QP recovers after an error");
            long batchGone = gone;
            assertThrows(RemoteAccessException.class, () -> t.batch().read(kept, 0, 8).read(batchGone, 8, 8).read(kept, 16, 8).execute());
            assertEquals(8, t.fetchAndAdd(kept, 1));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowRemoteOperationExceptionWhenFaultIsInjected(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            Assumptions.assumeTrue(c.fabric() instanceof SimFabric, "fault injection needs the simulator");
            SimFabric sim = (SimFabric) c.fabric();
            long w = scratch(t, 2);
            sim.failNextOperations(2, 1);
            RemoteOperationException e = assertThrows(RemoteOperationException.class, () -> t.fetchAndAdd(w, 1));
            assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, e.status());
            assertEquals(0, t.fetchAndAdd(w, 1));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowPeerUnreachableWithinBoundWhenNodeStopsAnswering(Function<SimOptions, Fabric> make) {
        SimOptions opts = SimOptions.defaults().withTransportTimeoutNanos(50_000_000L);
        try (TestCluster c = new TestCluster(make, opts, 3, b -> { }); ComputeThread t = c.thread(0)) {
            Assumptions.assumeTrue(c.fabric() instanceof SimFabric, "fault injection needs the simulator");
            SimFabric sim = (SimFabric) c.fabric();
            long w = scratch(t, 1);
            t.write(w, 3);
            sim.stopAnswering(1);
            long start = System.nanoTime();
            assertThrows(PeerUnreachableException.class, () -> t.read(w));
            assertThrows(PeerUnreachableException.class, () -> t.batch().write(w, 0, 8).read(w, 8, 8).execute());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10));
            t.write(scratch(t, 2), 4);
            assertEquals(4, t.read(scratch(t, 2)), "other peers still answer");
            sim.resumeAnswering(1);
            assertEquals(3, t.read(w));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowRemoteTimeoutWhenOperationTimeoutIsShorterThanTransportTimeout(Function<SimOptions, Fabric> make) {
        SimOptions opts = SimOptions.defaults().withTransportTimeoutNanos(TimeUnit.SECONDS.toNanos(30));
        try (TestCluster c = new TestCluster(make, opts, 3, b -> b.operationTimeout(Duration.ofMillis(100)).opsInFlightPerThread(2));
             ComputeThread t = c.thread(0)) {
            Assumptions.assumeTrue(c.fabric() instanceof SimFabric, "fault injection needs the simulator");
            SimFabric sim = (SimFabric) c.fabric();
            long w = scratch(t, 1);
            sim.stopAnswering(1);
            assertThrows(RemoteTimeoutException.class, () -> t.read(w));
            assertThrows(RemoteTimeoutException.class, () -> t.fetchAndAdd(w, 1));
            assertThrows(BadArgumentException.class, () -> t.read(scratch(t, 2), 0, 8),
                    "abandoned operations keep their slots until the fabric completes them");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReadLocallyAndWriteThroughNicWhenTargetIsOwnNode(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            long w = scratch(t, 1);
            MemorySegment raw = c.node(1).memoryNode().orElseThrow().segments().get(1).segment();
            t.write(w, 11);
            assertEquals(11, raw.get(ValueLayout.JAVA_LONG, 4096));
            raw.set(ValueLayout.JAVA_LONG, 4096, 12);
            assertEquals(12, t.read(w));
            assertEquals(12, t.fetchAndAdd(w, 1));
            t.writeLocal(w, 20);
            assertEquals(20, raw.get(ValueLayout.JAVA_LONG, 4096));
            assertEquals(20, t.readLocal(w));
            raw.set(ValueLayout.JAVA_LONG, 4096, 22);
            assertEquals(22, t.readLocal(w), "a CPU load of the word");
            t.writeLocal(w, 20);
            t.buffer().set(ValueLayout.JAVA_LONG, 0, 21);
            t.writeLocal(w, 0, 8);
            assertEquals(21, t.await(t.readWordAsync(w, false)));
            assertFalse(RemotePtr.isNull(w));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldGiveACpuViewWhenRangeIsOnOwnNodeAndRejectOtherwise(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            long w = scratch(t, 1);
            MemorySegment raw = c.node(1).memoryNode().orElseThrow().segments().get(1).segment();
            MemorySegment view = t.localSegment(w, 16);
            assertEquals(16, view.byteSize());
            view.set(ValueLayout.JAVA_LONG, 8, 33);
            assertEquals(33, raw.get(ValueLayout.JAVA_LONG, 4096 + 8));
            long segEnd = RemotePtr.offset(t.segmentBase(1, 1), t.segmentLength(1, 1));
            assertThrows(BadArgumentException.class, () -> t.localSegment(scratch(t, 0), 8), "another node");
            assertThrows(BadArgumentException.class, () -> t.localSegment(RemotePtr.offset(segEnd, -8), 16), "leaves segment");
            assertThrows(BadArgumentException.class, () -> t.localSegment(w, 0), "empty");
            assertFalse(t.isClosed());
            t.close();
            assertTrue(t.isClosed());
            assertThrows(BadArgumentException.class, () -> t.localSegment(w, 8), "closed thread");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseEveryUseOfTheBufferTypedWhenClosed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            long own = scratch(t, 1);
            long remote = scratch(t, 2);
            t.close();
            for (long ptr : new long[] {own, remote}) {
                assertClosed(() -> t.writeLocal(own, 0, 8), "writeLocal from the buffer");
                assertClosed(() -> t.write(ptr, 0, 8), "write from the buffer");
                assertClosed(() -> t.read(ptr, 0, 8), "read into the buffer");
                assertClosed(() -> t.write(ptr, MemorySegment.ofArray(new long[1])), "staged write");
                assertClosed(() -> t.write(ptr, 7), "word write");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowNullPointerNamingTheParameterWhenASegmentOrOpcodeIsNull(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            long remote = scratch(t, 2);
            assertEquals("destination", assertThrows(NullPointerException.class, () -> t.read(remote, null)).getMessage());
            assertEquals("source", assertThrows(NullPointerException.class, () -> t.write(remote, (MemorySegment) null)).getMessage());
            assertEquals("op", assertThrows(NullPointerException.class, () -> t.postedOperations(null)).getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseEveryOperationTypedWithoutTouchingMemoryWhenClosed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            long own = scratch(t, 1);
            long remote = scratch(t, 2);
            t.write(own, 41);
            t.write(remote, 42);
            t.close();
            for (long ptr : new long[] {own, remote}) {
                assertClosedThread(() -> t.read(ptr), "word read");
                assertClosedThread(() -> t.read(ptr, MemorySegment.ofArray(new long[1])), "staged read");
                assertClosedThread(() -> t.write(ptr, 7), "word write");
                assertClosedThread(() -> t.compareAndSwap(ptr, 41, 7), "compare-and-swap");
                assertClosedThread(() -> t.fetchAndAdd(ptr, 1), "fetch-and-add");
                assertClosedThread(() -> t.readWordAsync(ptr, false), "async word read");
                assertClosedThread(() -> t.fetchAndAddAsync(ptr, 1, false), "async fetch-and-add");
                assertClosedThread(() -> t.batch().fetchAndAdd(ptr, 1, 0).post(), "doorbell batch");
            }
            assertClosedThread(() -> t.readLocal(own), "local read");
            assertClosedThread(() -> t.writeLocal(own, 7), "local word write");
            assertClosedThread(() -> t.writeLocal(own, 0, 8), "local copy");
            assertClosedThread(() -> t.localSegment(own, 8), "local view");
            assertEquals(41, c.raw(own, 8).get(ValueLayout.JAVA_LONG, 0), "nothing reached the thread's own node");
            assertEquals(42, c.raw(remote, 8).get(ValueLayout.JAVA_LONG, 0), "nothing reached the remote node");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReleaseTheBufferWhenTheCompletionQueueIsBeyondTheDevicesLimit(Function<SimOptions, Fabric> make) {
        int ops = 64;
        int wrs = 16;
        int maxCqe = ops * wrs;
        try (TestCluster c = TestCluster.of(make)) {
            CountingFabricNode node = new CountingFabricNode(c.node(0).fabricNode(), maxCqe);
            ClusterConfig config = ClusterConfig.builder().nodeCount(3).memoryNodes(new NodeRange(0, 2))
                    .computeNodes(new NodeRange(0, 2)).segmentSize(64 << 10).segmentCount(2).bufferSizePerThread(8192)
                    .opsInFlightPerThread(ops).wrsPerBatch(wrs).build().withNodeId(0);
            BadArgumentException e = assertThrows(BadArgumentException.class,
                    () -> new ComputeThread(c.fabric(), node, config, java.util.List.of()));
            assertTrue(e.getMessage().contains(Integer.toString(2 * ops * wrs)), "names the capacity: " + e.getMessage());
            assertEquals(node.registrations.get(), node.registrationCloses.get(), "no registration is left behind");
            assertEquals(node.completionQueues.get(), node.completionQueueCloses.get(), "no completion queue is left behind");
            assertThrows(BadArgumentException.class, () -> c.node(0).fabricNode().createCompletionQueue(1 << 22),
                    "the fabric itself refuses a queue beyond its device's max_cqe");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCloseOnceWhenSeveralThreadsCloseAtOnceAfterTheOwnerEnded(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = TestCluster.of(make)) {
            for (int round = 0; round < 20; round++) {
                CountingFabricNode node = new CountingFabricNode(c.node(0).fabricNode(), Integer.MAX_VALUE);
                ComputeThread t = new ComputeThread(c.fabric(), node, c.node(0).config(),
                        c.node(0).memoryNode().orElseThrow().segments());
                Thread user = Thread.ofPlatform().start(() -> {
                    long[] blocks = new long[8];
                    for (int i = 0; i < blocks.length; i++) {
                        blocks[i] = t.allocator().allocate(48, 2);
                    }
                    for (long b : blocks) {
                        t.allocator().deallocate(b, 48);
                    }
                });
                user.join(30_000);
                assertFalse(user.isAlive(), "the owner used the thread's allocator and ended");
                java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.ConcurrentLinkedQueue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
                Thread[] closers = new Thread[4];
                for (int i = 0; i < closers.length; i++) {
                    closers[i] = Thread.ofPlatform().start(() -> {
                        try {
                            go.await();
                            t.close();
                        } catch (Throwable x) {
                            failures.add(x);
                        }
                    });
                }
                go.countDown();
                for (Thread closer : closers) {
                    closer.join(30_000);
                    assertFalse(closer.isAlive());
                }
                assertTrue(failures.isEmpty(), "round " + round + ": " + failures);
                assertTrue(t.isClosed());
                assertEquals(1, node.registrationCloses.get(), "round " + round + ": the buffer was released once");
                assertEquals(1, node.completionQueueCloses.get(), "round " + round + ": the completion queue was closed once");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseACloseFromAnotherThreadWhileTheOwnerIsAlive(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            long w = scratch(t, 2);
            java.util.concurrent.CountDownLatch used = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch closedElsewhere = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicReference<Throwable> ownerFailure = new java.util.concurrent.atomic.AtomicReference<>();
            Thread owner = Thread.ofPlatform().name("owner").start(() -> {
                try {
                    t.write(w, 1);
                    used.countDown();
                    assertTrue(closedElsewhere.await(30, TimeUnit.SECONDS));
                    assertEquals(2, t.fetchAndAdd(w, 1) + 1, "the owner still owns an open thread");
                } catch (Throwable x) {
                    ownerFailure.set(x);
                }
            });
            assertTrue(used.await(30, TimeUnit.SECONDS));
            ThreadConfinementException e = assertThrows(ThreadConfinementException.class, t::close);
            assertTrue(e.getMessage().contains("\"owner\""), e.getMessage());
            assertFalse(t.isClosed(), "the refused close changed nothing");
            closedElsewhere.countDown();
            owner.join(30_000);
            assertFalse(owner.isAlive());
            if (ownerFailure.get() != null) {
                throw new AssertionError("the owner failed", ownerFailure.get());
            }
            t.close();
            assertTrue(t.isClosed(), "once the owner has ended, another thread closes it");
            assertClosedThread(() -> t.read(w), "after the close");
        }
    }

    private static void assertClosedThread(org.junit.jupiter.api.function.Executable call, String what) {
        assertThrows(ClosedComputeThreadException.class, call, what);
    }

    private static void assertClosed(org.junit.jupiter.api.function.Executable call, String what) {
        BadArgumentException e = assertThrows(BadArgumentException.class, call, what);
        assertTrue(e.getMessage().contains("closed"), what + ": " + e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldSpreadOverLanesAndStayExactWhenSeveralQpLanesPerPeer(Function<SimOptions, Fabric> make) throws Exception {
        for (io.remus.core.config.LanePolicy policy : io.remus.core.config.LanePolicy.values()) {
            try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.qpLanesPerPeer(3).lanePolicy(policy).threadsPerNode(2))) {
                c.runOnThreads(new int[] {0, 1, 2, 2}, (i, t) -> {
                    for (int k = 0; k < 300; k++) {
                        t.fetchAndAdd(RemotePtr.offset(t.segmentBase(1, 1), 4096 + 8 * (k % 4)), 1);
                        long h = t.readWordAsync(RemotePtr.offset(t.segmentBase(0, 1), 4096), false);
                        t.await(h);
                    }
                });
                try (ComputeThread t = c.thread(0)) {
                    long sum = 0;
                    for (int w = 0; w < 4; w++) {
                        sum += t.read(RemotePtr.offset(t.segmentBase(1, 1), 4096 + 8 * w));
                    }
                    assertEquals(4 * 300, sum, policy.toString());
                }
            }
        }
    }
}
