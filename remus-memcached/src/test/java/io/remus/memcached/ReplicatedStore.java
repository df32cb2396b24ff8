package io.remus.memcached;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Plane;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.ReplicaGroup;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;

/**
 * Test fixture: one shard of a replicated memcached store on a 3-node simulated cluster, each member's
 * {@link ReplicatedCacheShard} with fail-over on, on its own thread: its log and agent on a compute thread of the
 * default plane (another member's agent may already have switched the replication plane's grant while it claims
 * its log's name), its leader on the group's plane. A member can be killed as its process would be.
 */
final class ReplicatedStore implements AutoCloseable {
    static final long SECOND = 1_000_000_000L;
    static final ReplicaGroup GROUP = ReplicaGroup.of(0, 1, 2);
    static final int MAX_ITEM = 200;
    static final Duration COMMIT = Duration.ofMillis(2);
    static final Duration TAKEOVER = Duration.ofMillis(20);
    /** How long a member's creation waits for the other members' logs: the three start at once on a loaded host. */
    static final Duration OPEN = Duration.ofSeconds(10);
    static final Duration ATTEMPT = Duration.ofMillis(5);
    static final Duration DEADLINE = Duration.ofSeconds(2);

    final TestCluster cluster;
    final AtomicReferenceArray<ReplicatedCacheShard> servers = new AtomicReferenceArray<>(3);
    final AtomicIntegerArray kill = new AtomicIntegerArray(3);
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final AtomicLong clock = new AtomicLong(1_700_000_000L);
    final Thread[] threads = new Thread[3];
    final long[] applied = new long[3];
    final long[] duplicates = new long[3];
    final int[] size = new int[3];
    final long[] takeovers = new long[3];
    final long[] fromTable = new long[3];
    final int suspectAfter;
    final LongSupplier time;

    /** A store whose leaders stamp entries with {@link #clock}, which the test moves. */
    ReplicatedStore(SimOptions options, int suspectAfter) {
        this(options, suspectAfter, null);
    }

    /** A store whose leaders stamp entries with {@code time} (unix seconds), or {@link #clock} when null. */
    ReplicatedStore(SimOptions options, int suspectAfter, LongSupplier time) {
        this.cluster = new TestCluster(SimFabric::new, options, 3, c -> c.segmentSize(8 << 20));
        this.suspectAfter = suspectAfter;
        this.time = time != null ? time : clock::get;
    }

    void start() {
        for (int n = 0; n < 3; n++) {
            int node = n;
            threads[n] = ThreadTime.newThread("server-" + n, () -> {
                try (ComputeThread t = cluster.thread(node);
                     ComputeThread lt = cluster.thread(node, Plane.REPLICATION)) {
                    ReplicatedCacheShard s = ReplicatedCacheShard.create(cluster.node(node), t, lt, GROUP, "mc-0",
                            0, 1, 32, MAX_ITEM, time, suspectAfter, COMMIT, TAKEOVER, OPEN);
                    servers.set(node, s);
                    while (!stop.get()) {
                        if (kill.get(node) == 1) {
                            return;
                        }
                        if (s.runOnce() == 0) {
                            ThreadTime.parkNanos(null, 2_000);
                        }
                    }
                    s.runOnce();
                    applied[node] = s.machine().applied();
                    duplicates[node] = s.machine().duplicates();
                    size[node] = s.machine().size();
                    takeovers[node] = s.takeovers();
                    fromTable[node] = s.answeredFromTable();
                    s.close();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            threads[n].start();
        }
        long deadline = ThreadTime.nanoTime() + 10 * SECOND;
        while (servers.get(0) == null || servers.get(0).knownLeader() != 0) {
            if (failure.get() != null) {
                throw new AssertionError("a server failed", failure.get());
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new AssertionError("node 0 did not take the shard over");
            }
            ThreadTime.parkNanos(null, 5_000);
        }
    }

    ReplicatedCacheEngine engine(long client) {
        return new ReplicatedCacheEngine(List.of(GROUP), (shard, node) -> kill.get(node) == 1 ? null : servers.get(node),
                client, MAX_ITEM, ATTEMPT, DEADLINE);
    }

    /**
     * Kills node 0's process: its server thread stops where it is, then its node stops answering (a crash as
     * the fabric sees it: every request to it ends with the transport timeout).
     */
    void killNode0() throws InterruptedException {
        kill.set(0, 1);
        if (!ThreadTime.join(threads[0], 10 * SECOND)) {
            throw new AssertionError("server 0 did not stop");
        }
        ((SimFabric) cluster.fabric()).stopAnswering(0);
    }

    void stopAll() throws InterruptedException {
        ThreadTime.parkNanos(null, 1_000_000);
        stop.set(true);
        for (Thread th : threads) {
            if (!ThreadTime.join(th, 10 * SECOND)) {
                throw new AssertionError(th.getName() + " did not stop");
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("a server failed", failure.get());
        }
    }

    @Override
    public void close() {
        stop.set(true);
        for (Thread th : threads) {
            try {
                if (th != null) {
                    ThreadTime.join(th, 10 * SECOND);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        cluster.close();
    }
}
