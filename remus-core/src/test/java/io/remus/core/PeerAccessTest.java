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
import io.remus.core.fabric.Plane;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.memory.RemotePtr;
import io.remus.core.rpc.RpcEndpoint;
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
import java.util.concurrent.atomic.AtomicBoolean;
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
 * revokes a peer's writes and atomics, keeps its reads, and grants them again; per plane
 * ({@link FabricNode#setPeerAccess(int, int, PeerAccess)}), a peer's queue pairs of one plane only. Memory node 0,
 * compute node 1, both in this process.
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
    /** Asserts that {@code op} is refused by node 0 with one of {@link #refusals()}. */
    private void assertRefused(Runnable op, String what) {
        RemoteAccessException e = assertThrows(RemoteAccessException.class, op::run, what);
        assertTrue(refusals().contains(e.status()), what + ": " + e.getMessage());
        assertEquals(0, e.nodeId(), what);
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseOnlyThatPlaneWhenPeerIsReadOnlyOnOnePlane(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults());
             RemusNode memory = RemusNode.start(fabric, config(0));
             RemusNode compute = RemusNode.start(fabric, config(1));
             ComputeThread plain = compute.newComputeThread();
             ComputeThread replication = compute.newComputeThread(Plane.REPLICATION)) {
            assertEquals(Plane.DEFAULT, plain.plane());
            assertEquals(Plane.REPLICATION, replication.plane());
            long a = plain.allocator().allocate(64, 0);
            long b = a + 8;
            replication.write(a, 1);
            plain.write(b, 2);

            memory.setPeerAccess(1, Plane.REPLICATION, PeerAccess.READ_ONLY);

            assertRefused(() -> replication.write(a, 3), "a plane-1 WRITE");
            assertRefused(() -> replication.compareAndSwap(a, 1, 4), "a plane-1 compare-and-swap");
            assertRefused(() -> replication.fetchAndAdd(b, 1), "a plane-1 fetch-and-add");
            assertEquals(1, local(memory, a), "a refused plane-1 request changes nothing");
            assertEquals(2, local(memory, b));
            assertEquals(1, replication.read(a), "plane-1 reads stay open");
            plain.write(a, 5);
            assertEquals(2, plain.fetchAndAdd(b, 1), "plane 0 keeps its atomics");
            assertEquals(5, local(memory, a), "plane 0 keeps its WRITEs");

            memory.setPeerAccess(1, Plane.DEFAULT, PeerAccess.READ_ONLY);
            memory.setPeerAccess(1, Plane.REPLICATION, PeerAccess.READ_WRITE);

            assertRefused(() -> plain.write(a, 6), "a plane-0 WRITE");
            replication.write(a, 7);
            assertEquals(7, local(memory, a), "revoking plane 0 leaves plane 1 alone");

            memory.setPeerAccess(1, Plane.DEFAULT, PeerAccess.READ_WRITE);
            plain.write(b, 8);
            assertEquals(8, local(memory, b));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldSwitchEveryPlaneWhenSwitchNamesNone(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults());
             RemusNode memory = RemusNode.start(fabric, config(0));
             RemusNode compute = RemusNode.start(fabric, config(1));
             ComputeThread plain = compute.newComputeThread();
             ComputeThread replication = compute.newComputeThread(Plane.REPLICATION);
             ComputeThread last = compute.newComputeThread(Plane.COUNT - 1)) {
            long a = plain.allocator().allocate(64, 0);
            last.write(a, 1);

            memory.setPeerAccess(1, PeerAccess.READ_ONLY);

            assertRefused(() -> plain.write(a, 2), "a plane-0 WRITE");
            assertRefused(() -> replication.write(a, 3), "a plane-1 WRITE");
            assertRefused(() -> last.fetchAndAdd(a, 1), "a plane-15 fetch-and-add");
            assertEquals(1, local(memory, a));

            memory.setPeerAccess(1, Plane.REPLICATION, PeerAccess.READ_WRITE);
            replication.write(a, 4);
            assertRefused(() -> plain.write(a, 5), "plane 0, still revoked");

            memory.setPeerAccess(1, PeerAccess.READ_WRITE);
            plain.write(a, 6);
            assertEquals(6, last.fetchAndAdd(a, 1));
            replication.write(a, 8);
            assertEquals(8, local(memory, a));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepRpcOfPeerWhenOnlyItsReplicationPlaneIsRevoked(Function<SimOptions, Fabric> make) throws Exception {
        try (Fabric fabric = make.apply(SimOptions.defaults());
             RemusNode memory = RemusNode.start(fabric, config(0));
             RemusNode compute = RemusNode.start(fabric, config(1));
             RpcEndpoint server = RpcEndpoint.create(memory.fabricNode(), 2, 4);
             RpcEndpoint client = RpcEndpoint.create(compute.fabricNode(), 2, 4);
             ComputeThread replication = compute.newComputeThread(Plane.REPLICATION)) {
            long a = replication.allocator().allocate(64, 0);
            server.connect(client.rings(), Duration.ofSeconds(30));
            client.connect(server.rings(), Duration.ofSeconds(30));
            server.registerLong(1, x -> x + 1);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread serving = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        server.serve(Duration.ofMillis(5));
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "peer-access-rpc-server");
            serving.start();
            try {
                memory.setPeerAccess(1, Plane.REPLICATION, PeerAccess.READ_ONLY);

                assertRefused(() -> replication.write(a, 1), "a plane-1 WRITE");
                assertEquals(8, client.callLong(0, 1, 7, Duration.ofSeconds(30)), "the peer's RPC still reaches node 0");
                assertEquals(0, local(memory, a));
            } finally {
                stop.set(true);
                serving.join(TimeUnit.SECONDS.toMillis(20));
            }
            assertFalse(serving.isAlive());
            assertEquals(null, failure.get());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseOnePlanesQueuePairAndServeTheOther(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            RegisteredMemory remote = b.allocate(4096);
            b.publish(remote);
            RemoteRegion region = fabric.publishedRegions(1).get(0);
            RegisteredMemory mine = a.allocate(4096);
            CompletionQueue cq = a.createCompletionQueue(64);
            QueuePair plain = a.connect(1, Plane.DEFAULT, cq, 16, Duration.ofMinutes(1));
            QueuePair replication = a.connect(1, Plane.REPLICATION, cq, 16, Duration.ofMinutes(1));
            WorkRequests wrs = new WorkRequests(1);
            mine.segment().set(ValueLayout.JAVA_LONG, 0, 41L);

            b.setPeerAccess(0, Plane.REPLICATION, PeerAccess.READ_ONLY);
            wrs.addWrite(1, mine.address(), 8, mine.lkey(), region.address() + 64, region.rkey(), WorkRequests.SIGNALED);
            replication.post(wrs);
            List<String> refused = poll(cq, 1);
            assertTrue(refusals().stream().anyMatch(status -> refused.get(0).equals("1 " + status)), "refused: " + refused);
            assertEquals(0L, remote.segment().get(ValueLayout.JAVA_LONG, 64));
            wrs.clear();
            wrs.addWrite(2, mine.address(), 8, mine.lkey(), region.address() + 64, region.rkey(), WorkRequests.SIGNALED);
            plain.post(wrs);
            assertEquals(List.of("2 " + CompletionStatus.SUCCESS), poll(cq, 1));
            assertEquals(41L, remote.segment().get(ValueLayout.JAVA_LONG, 64));
            assertTrue(replication.inError());
            assertFalse(plain.inError());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseBadPlanesByName(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults());
             RemusNode memory = RemusNode.start(fabric, config(0));
             RemusNode compute = RemusNode.start(fabric, config(1))) {
            BadArgumentException negative = assertThrows(BadArgumentException.class,
                    () -> memory.setPeerAccess(1, -1, PeerAccess.READ_ONLY));
            assertTrue(negative.getMessage().contains("plane") && negative.getMessage().contains("-1"), negative.getMessage());
            BadArgumentException large = assertThrows(BadArgumentException.class,
                    () -> memory.setPeerAccess(1, Plane.COUNT, PeerAccess.READ_ONLY));
            assertTrue(large.getMessage().contains(String.valueOf(Plane.COUNT)), large.getMessage());
            BadArgumentException self = assertThrows(BadArgumentException.class,
                    () -> memory.setPeerAccess(0, Plane.REPLICATION, PeerAccess.READ_ONLY));
            assertTrue(self.getMessage().contains("peer 0"), self.getMessage());
            assertThrows(NullPointerException.class, () -> memory.setPeerAccess(1, Plane.REPLICATION, null));
            BadArgumentException thread = assertThrows(BadArgumentException.class, () -> compute.newComputeThread(-2));
            assertTrue(thread.getMessage().contains("-2"), thread.getMessage());
            FabricNode node = compute.fabricNode();
            CompletionQueue cq = node.createCompletionQueue(4);
            BadArgumentException connect = assertThrows(BadArgumentException.class,
                    () -> node.connect(0, Plane.COUNT + 1, cq, 4, Duration.ofSeconds(1)));
            assertTrue(connect.getMessage().contains(String.valueOf(Plane.COUNT + 1)), connect.getMessage());
        }
    }
}
