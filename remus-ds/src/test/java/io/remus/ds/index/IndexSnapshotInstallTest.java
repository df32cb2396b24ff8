package io.remus.ds.index;

import io.remus.core.fabric.Plane;
import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.ReplicaGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshots of the index end to end, on the simulated fabric under the virtual-time scheduler (ConnectX-5 cost model,
 * 1 ms transport timeout), one shard of 3 replicas (nodes 0-2) whose servers run with fail-over and snapshots on
 * ({@link IndexShardServer#create(io.remus.core.RemusNode, ComputeThread, io.remus.core.rpc.RpcEndpoint, IndexShards,
 * int, int, int, int, Duration)}): a follower that stops answering while the leader commits more entries than the log's
 * ring holds is caught up from the leader's image, ends with the leader's map and session table, and, once it leads,
 * answers a client's retry of an old command from its restored table without applying it again; a member behind the
 * ring that is elected before any catch-up takes over from another member's image; a region too small for any image
 * is counted, not fatal.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IndexSnapshotInstallTest {
    private static final SimOptions OPTIONS = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withTransportTimeoutNanos(1_000_000);
    private static final int SLOTS = 16;
    private static final int EVERY = 4;
    private static final int SUSPECT_AFTER = 64;
    private static final Duration TAKEOVER = Duration.ofMillis(20);
    private static final Duration DEADLINE = Duration.ofSeconds(2);
    private static final int BEFORE = 10;
    private static final int WHILE_STOPPED = 3 * SLOTS;
    private static final int AFTER = 5;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 3);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** What a server thread left when it stopped. */
    record Final(long applied, long duplicates, long lastIndex, String state, byte[] image, long restored, long taken,
                 long refused, long fromTable, long caughtUp, long takeovers) {
    }

    /** The servers of shard 0 with fail-over and snapshots on, what each shows while it runs and what it ended with. */
    private static final class Servers {
        final IndexHarness h;
        final Final[] ended = new Final[3];
        final AtomicIntegerArray leading = new AtomicIntegerArray(3);
        final AtomicLongArray lastIndex = new AtomicLongArray(3);
        final AtomicLongArray restored = new AtomicLongArray(3);
        final AtomicReferenceArray<String> state = new AtomicReferenceArray<>(3);

        Servers(IndexHarness h) {
            this.h = h;
        }

        void start(int snapshotBytes, int every) {
            for (int n = 0; n < 3; n++) {
                int node = n;
                lastIndex.set(node, -1);
                Thread th = ThreadTime.newThread("server-" + node, () -> {
                    try (ComputeThread t = h.cluster.thread(node, Plane.REPLICATION); ComputeThread lt = h.cluster.thread(node, Plane.REPLICATION)) {
                        if (node == 0) {
                            assertThrows(BadArgumentException.class, () -> IndexShardServer.create(h.cluster.node(node), t,
                                    h.endpoints[node], h.shards, 0, SLOTS, snapshotBytes, SLOTS / 2 + 1,
                                    IndexHarness.COMMIT), "an image every more than half the ring");
                            assertThrows(BadArgumentException.class, () -> IndexShardServer.create(h.cluster.node(node), t,
                                    h.endpoints[node], h.shards, 0, SLOTS, 0, 1, IndexHarness.COMMIT),
                                    "a period without a region");
                        }
                        IndexShardServer server = IndexShardServer.create(h.cluster.node(node), t, h.endpoints[node],
                                h.shards, 0, SLOTS, snapshotBytes, every, IndexHarness.COMMIT);
                        h.servers[node] = server;
                        server.enableFailover(lt, SUSPECT_AFTER, TAKEOVER);
                        IndexStateMachine m = server.machine();
                        while (!h.stop.get()) {
                            server.runOnce(Duration.ofNanos(20_000));
                            leading.set(node, server.isLeader() ? 1 : 0);
                            if (m.lastIndex() != lastIndex.get(node)) {
                                state.set(node, m.describe());
                                restored.set(node, server.replica().snapshotsRestored());
                                lastIndex.set(node, m.lastIndex());
                            }
                        }
                        server.runOnce(Duration.ZERO);
                        ended[node] = new Final(m.applied(), m.duplicates(), m.lastIndex(), m.describe(),
                                m.snapshot().toArray(ValueLayout.JAVA_BYTE), server.replica().snapshotsRestored(),
                                server.replica().snapshotsTaken(), server.snapshotsRefused(), server.answeredFromTable(),
                                server.caughtUpFollowers(), server.takeovers());
                        server.close();
                    } catch (Throwable e) {
                        h.failure.compareAndSet(null, e);
                    }
                });
                h.threads.add(th);
                th.start();
            }
            await(() -> leading.get(0) == 1, "node 0 takes its shard over");
        }

        void await(java.util.function.BooleanSupplier done, String what) {
            long deadline = ThreadTime.nanoTime() + 10 * IndexHarness.SECOND;
            while (!done.getAsBoolean()) {
                if (h.failure.get() != null) {
                    throw new AssertionError("a server failed", h.failure.get());
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new AssertionError("within 10 s: " + what);
                }
                ThreadTime.parkNanos(null, 5_000);
            }
        }
    }

    /** One seeded operation: 50 % put, 30 % get, 20 % delete, over 6 keys. */
    private static void operate(RemusIndex index, SplittableRandom rnd, int i) {
        byte[] key = b("key" + rnd.nextInt(6));
        int pick = rnd.nextInt(10);
        if (pick < 5) {
            index.put(key, b("value-" + i), DEADLINE);
        } else if (pick < 8) {
            index.get(key, DEADLINE);
        } else {
            index.delete(key, DEADLINE);
        }
    }

    /**
     * Node 1 stops answering after {@value #BEFORE} operations; the leader, node 0, commits
     * {@value #WHILE_STOPPED} more (three rings of {@value #SLOTS}) with node 2, every member storing an image every
     * {@value #EVERY} entries. Node 1 answers again: the leader's catch-up installs its image and the entries after
     * it, and node 1 applies up to the leader's last entry with the leader's map and session table. Then node 0
     * stops answering; nodes 1 and 2 elect node 1, which takes over, and the client resends its last put under its
     * old sequence: node 1 answers it from the table it restored, with the first answer's result, and applies it
     * no second time. Nodes 1 and 2 end with byte-identical images and every operation applied once.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldCatchUpAFollowerBehindTheRingFromAnImageAndAnswerARetryFromItsTable(long seed) {
        behindTheRing(seed, false);
    }

    /**
     * As above, but node 0 is cut off ({@link SimFabric#isolate}) at the moment node 1 answers again, before it
     * can catch node 1 up: nodes 1 and 2 elect node 1, whose log is further behind than the ring, and its takeover
     * restores node 2's image ({@link io.remus.ds.replicate.LogLeader#takeOver}) before it serves; it answers the
     * resend from that table, and both survivors applied every operation once with byte-identical images.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldLetAMemberBehindTheRingTakeOverFromAnotherMembersImage(long seed) {
        behindTheRing(seed, true);
    }

    private static void behindTheRing(long seed, boolean cutLeaderFirst) {
        IndexShards shards = IndexShards.of("sn", ReplicaGroup.of(0, 1, 2));
        boolean[] answers = new boolean[2];
        String[] seen = new String[2];
        long[] restoredBeforeTakeover = new long[1];
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(OPTIONS, shards, 3, 1, SLOTS)) {
                SimFabric fabric = (SimFabric) h.cluster.fabric();
                Servers servers = new Servers(h);
                servers.start(4096, EVERY);
                h.runClients(1, (c, index) -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    for (int i = 0; i < BEFORE; i++) {
                        operate(index, rnd, i);
                    }
                    fabric.stopAnswering(1);
                    for (int i = BEFORE; i < BEFORE + WHILE_STOPPED - 1; i++) {
                        operate(index, rnd, i);
                    }
                    byte[] last = b("last");
                    index.put(last, b("first"), DEADLINE);
                    answers[0] = index.put(last, b("second"), DEADLINE);
                    long lastSequence = index.sequence();
                    if (cutLeaderFirst) {
                        fabric.isolate(0);
                        fabric.resumeAnswering(1);
                    } else {
                        fabric.resumeAnswering(1);
                        servers.await(() -> servers.lastIndex.get(1) == servers.lastIndex.get(0), "node 1 catches up");
                        seen[0] = servers.state.get(0);
                        seen[1] = servers.state.get(1);
                        restoredBeforeTakeover[0] = servers.restored.get(1);
                        fabric.stopAnswering(0);
                    }
                    answers[1] = index.invoke(IndexFormat.PUT, last, b("second"), lastSequence, DEADLINE)
                            == IndexStatus.FOUND;
                    for (int i = 0; i < AFTER; i++) {
                        operate(index, rnd, BEFORE + WHILE_STOPPED + 1 + i);
                    }
                });
                h.stopServers(1_000_000);
                Final f0 = servers.ended[0];
                Final f1 = servers.ended[1];
                Final f2 = servers.ended[2];
                long sent = BEFORE + WHILE_STOPPED + 1 + AFTER;
                if (cutLeaderFirst) {
                    assertTrue(f1.restored() >= 1, "node 1 restored node 2's image: " + f1.restored());
                } else {
                    assertEquals(seen[0], seen[1], "node 1, caught up, holds the leader's map and session table");
                    assertEquals(1, restoredBeforeTakeover[0], "node 1 restored one image");
                    assertTrue(f0.caughtUp() >= 1, "the leader caught node 1 up: " + f0.caughtUp());
                }
                assertTrue(f0.taken() >= (BEFORE + WHILE_STOPPED) / (2 * EVERY), "the leader stored an image about every "
                        + EVERY + " entries: " + f0.taken());
                assertEquals(0, f0.refused());
                assertTrue(f1.takeovers() >= 1, "node 1 took over");
                assertEquals(answers[0], answers[1], "the retry gets the first answer's result");
                assertTrue(answers[0], "the second put of the key replaced the first");
                assertTrue(f1.fromTable() >= 1, "node 1 answered the retry from its restored table");
                assertEquals(sent, f1.applied(), "node 1 applied every operation once");
                assertEquals(sent, f2.applied(), "node 2 applied every operation once");
                assertEquals(f1.lastIndex(), f2.lastIndex());
                assertEquals(f1.state(), f2.state());
                assertArrayEquals(f1.image(), f2.image(), "two replicas of one log give byte-identical images");
                assertEquals(0, f2.restored(), "node 2 never fell behind the ring");
            }
        });
    }

    /**
     * A region of 48 bytes holds no image once a client is in the session table: every member's policy counts
     * each refused image and serves on; the operations are all applied.
     */
    @Test
    void shouldCountImagesLargerThanTheRegionAndServeOn() {
        IndexShards shards = IndexShards.of("sr", ReplicaGroup.of(0, 1, 2));
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1), () -> {
            try (IndexHarness h = new IndexHarness(OPTIONS, shards, 3, 1, SLOTS)) {
                Servers servers = new Servers(h);
                servers.start(48, EVERY);
                h.runClients(1, (c, index) -> {
                    SplittableRandom rnd = new SplittableRandom(1);
                    for (int i = 0; i < 20; i++) {
                        operate(index, rnd, i);
                    }
                });
                h.stopServers(1_000_000);
                int whole = 0;
                for (int n = 0; n < 3; n++) {
                    Final f = servers.ended[n];
                    whole += f.applied() == 20 ? 1 : 0;
                    assertEquals(0, f.taken(), "node " + n + " stored no image");
                    assertTrue(f.refused() <= f.applied() / EVERY && (f.applied() < EVERY || f.refused() >= 1), "node " + n
                            + " refused at most one image every " + EVERY + " entries: " + f.refused() + " of "
                            + f.applied() + "; caught up by node 0: " + servers.ended[0].caughtUp());
                }
                assertEquals(20, servers.ended[0].applied(), "the leader applied every operation");
                assertTrue(whole >= 2, "a majority applied every operation: " + whole);
            }
        });
    }
}
