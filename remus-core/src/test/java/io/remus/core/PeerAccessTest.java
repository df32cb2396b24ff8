package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.RemoteAccessException;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.PeerAccess;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.CompletionPolls;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mu's permission switch ({@link FabricNode#setPeerAccess}, {@link RemusNode#setPeerAccess}): a memory node
 * revokes a peer's writes and atomics, keeps its reads, and grants them again. Memory node 0, compute node 1,
 * both in this process.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PeerAccessTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /**
     * Whether the fabric's switch waits for the peer's writes executing on the node, so that the memory seen
     * as it returns is the memory afterwards (the simulator and shared memory do; verbs returns when
     * {@code ibv_modify_qp} does).
     */
    boolean switchWaitsForExecutingWrites() {
        return true;
    }

    /**
     * {@return the statuses a refused WRITE or atomic may complete with: {@code REMOTE_ACCESS_ERROR} on the
     *          simulator and shared memory}
     */
    Set<CompletionStatus> refusals() {
        return Set.of(CompletionStatus.REMOTE_ACCESS_ERROR);
    }

    static ClusterConfig config(int nodeId) {
        return ClusterConfig.builder().nodeCount(2).memoryNodes(new NodeRange(0, 0)).computeNodes(new NodeRange(1, 1))
                .segmentSize(64 << 10).segmentCount(1).bufferSizePerThread(8192)
                .operationTimeout(Duration.ofSeconds(30)).build().withNodeId(nodeId);
    }

    /** {@return the 8-byte word at {@code ptr} as memory node {@code node}'s CPU sees it} */
    static long local(RemusNode node, long ptr) {
        RegisteredMemory segment = node.memoryNode().orElseThrow().segments().get(0);
        MemorySegment bytes = segment.segment();
        return bytes.get(ValueLayout.JAVA_LONG, RemotePtr.address(ptr) - segment.address());
    }

    /** {@return the next {@code n} completions of {@code cq}, each as "wrId status"} */
    static List<String> poll(CompletionQueue cq, int n) {
        Completions out = new Completions(n);
        List<String> got = new ArrayList<>();
        while (got.size() < n) {
            int k = CompletionPolls.pollSome(cq, out, Duration.ofSeconds(5));
            for (int i = 0; i < k; i++) {
                got.add(out.wrId(i) + " " + out.status(i));
            }
        }
        return got;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseWritesAndAtomicsAndKeepReadsWhenPeerIsReadOnly(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults());
             RemusNode memory = RemusNode.start(fabric, config(0));
             RemusNode compute = RemusNode.start(fabric, config(1));
             ComputeThread t = compute.newComputeThread()) {
            long a = t.allocator().allocate(64, 0);
            long b = a + 8;
            t.write(a, 7);
            assertEquals(0, t.compareAndSwap(b, 0, 9), "a CAS before the revoke lands");
            assertEquals(9, t.fetchAndAdd(b, 1), "an FAA before the revoke lands");
            assertEquals(7, local(memory, a));
            assertEquals(10, local(memory, b));

            memory.setPeerAccess(1, PeerAccess.READ_ONLY);

            RemoteAccessException write = assertThrows(RemoteAccessException.class, () -> t.write(a, 8));
            assertTrue(refusals().contains(write.status()), write.getMessage());
            assertEquals(0, write.nodeId());
            assertTrue(write.getMessage().contains("node 0"), write.getMessage());
            RemoteAccessException cas = assertThrows(RemoteAccessException.class, () -> t.compareAndSwap(b, 10, 11));
            assertTrue(refusals().contains(cas.status()), cas.getMessage());
            assertEquals(0, cas.nodeId());
            RemoteAccessException faa = assertThrows(RemoteAccessException.class, () -> t.fetchAndAdd(b, 1));
            assertTrue(refusals().contains(faa.status()), faa.getMessage());
            assertEquals(7, local(memory, a), "a refused WRITE changes nothing");
            assertEquals(10, local(memory, b), "a refused atomic changes nothing");
            assertEquals(7, t.read(a), "reads stay open");
            assertEquals(10, t.read(b));

            memory.setPeerAccess(1, PeerAccess.READ_WRITE);

            t.write(a, 8);
            assertEquals(10, t.compareAndSwap(b, 10, 11));
            assertEquals(8, t.read(a));
            assertEquals(11, local(memory, b));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseBadPeersByName(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults());
             RemusNode memory = RemusNode.start(fabric, config(0))) {
            BadArgumentException self = assertThrows(BadArgumentException.class,
                    () -> memory.setPeerAccess(0, PeerAccess.READ_ONLY));
            assertTrue(self.getMessage().contains("peer 0"), self.getMessage());
            BadArgumentException negative = assertThrows(BadArgumentException.class,
                    () -> memory.setPeerAccess(-1, PeerAccess.READ_ONLY));
            assertTrue(negative.getMessage().contains("-1"), negative.getMessage());
            BadArgumentException large = assertThrows(BadArgumentException.class,
                    () -> memory.setPeerAccess(RemotePtr.MAX_NODE_ID + 1, PeerAccess.READ_WRITE));
            assertTrue(large.getMessage().contains(String.valueOf(RemotePtr.MAX_NODE_ID + 1)), large.getMessage());
            assertThrows(NullPointerException.class, () -> memory.setPeerAccess(1, null));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldPutWritersQueuePairInErrorAndServeReadsAfterReset(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            RegisteredMemory remote = b.allocate(4096);
            b.publish(remote);
            RemoteRegion region = fabric.publishedRegions(1).get(0);
            RegisteredMemory mine = a.allocate(4096);
            CompletionQueue cq = a.createCompletionQueue(64);
            QueuePair qp = a.connect(1, cq, 16, Duration.ofMinutes(1));
            Completions out = new Completions(8);
            WorkRequests wrs = new WorkRequests(4);
            remote.segment().set(ValueLayout.JAVA_LONG, 64, 5L);

            b.setPeerAccess(0, PeerAccess.READ_ONLY);
            mine.segment().set(ValueLayout.JAVA_LONG, 0, 41L);
            wrs.addWrite(1, mine.address(), 8, mine.lkey(), region.address() + 64, region.rkey(), WorkRequests.SIGNALED);
            wrs.addRead(2, mine.address() + 8, 8, mine.lkey(), region.address() + 64, region.rkey(), WorkRequests.SIGNALED);
            qp.post(wrs);
            List<String> got = poll(cq, 2);
            assertTrue(refusals().stream().anyMatch(status -> got.get(0).equals("1 " + status)), "the WRITE is refused: " + got);
            assertEquals("2 " + CompletionStatus.FLUSHED, got.get(1), "the queue pair went to the error state: " + got);
            assertTrue(qp.inError());
            assertEquals(5L, remote.segment().get(ValueLayout.JAVA_LONG, 64));

            qp.reset();
            assertFalse(qp.inError());
            wrs.clear();
            wrs.addRead(3, mine.address() + 8, 8, mine.lkey(), region.address() + 64, region.rkey(), WorkRequests.SIGNALED);
            qp.post(wrs);
            assertEquals(1, CompletionPolls.pollSome(cq, out, Duration.ofSeconds(5)));
            assertEquals(CompletionStatus.SUCCESS, out.status(0));
            assertEquals(5L, mine.segment().get(ValueLayout.JAVA_LONG, 8));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLandEveryAcknowledgedWriteAndNoRefusedOneWhenRevokedUnderLoad(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        try (Fabric fabric = make.apply(SimOptions.defaults());
             RemusNode memory = RemusNode.start(fabric, config(0));
             RemusNode compute = RemusNode.start(fabric, config(1));
             ComputeThread t = compute.newComputeThread();
             ComputeThread writer = compute.newComputeThread()) {
            long word = t.allocator().allocate(64, 0);
            AtomicLong acknowledged = new AtomicLong();
            AtomicReference<Throwable> ended = new AtomicReference<>();
            Thread thread = new Thread(() -> {
                try {
                    for (long v = 1; v < Long.MAX_VALUE; v++) {
                        writer.write(word, v);
                        acknowledged.set(v);
                    }
                } catch (Throwable e) {
                    ended.set(e);
                }
            }, "peer-access-writer");
            thread.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (acknowledged.get() < 100 && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            assertTrue(acknowledged.get() >= 100, "the writer wrote");
            memory.setPeerAccess(1, PeerAccess.READ_ONLY);
            long seen = local(memory, word);
            thread.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(thread.isAlive(), "the writer's next WRITE was refused");
            assertInstanceOf(RemoteAccessException.class, ended.get());
            assertEquals(acknowledged.get(), local(memory, word), "the last WRITE that completed is the last that landed");
            if (switchWaitsForExecutingWrites()) {
                assertEquals(seen, local(memory, word), "no WRITE landed after the switch returned");
            }
        }
    }
}
