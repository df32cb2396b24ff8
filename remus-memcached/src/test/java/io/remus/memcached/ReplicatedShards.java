package io.remus.memcached;

import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.ReplicaGroup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Test fixture: a replicated memcached store of several shards on a 3-node simulated cluster in real time, each
 * shard's group the three nodes on a plane of its own (one fail-over log per node and plane), each member's
 * {@link ReplicatedCacheShard} with fail-over on, on its own thread: its log and agent on a compute thread of the
 * default plane, its leader on one of the group's plane (a member's grant switches only the group's plane, so a
 * member still being created reaches the others' memory while their agents already grant). A node's process can be killed: its members'
 * threads stop where they are, its node stops answering, and the handles it ran ({@link #engine} with it as home)
 * send nothing more.
 */
final class ReplicatedShards implements AutoCloseable {
    static final int NODES = 3;
    static final long SECOND = 1_000_000_000L;
    static final int MAX_ITEM = 200;
    /** Real time on a shared host: a heartbeat is never suspected for being slow, only for failing. */
    static final int SUSPECT_AFTER = 100_000;
    static final Duration COMMIT = Duration.ofMillis(50);
    /** Also how long a member's creation waits for the other members' logs, all six members starting at once. */
    static final Duration TAKEOVER = Duration.ofSeconds(2);
    static final Duration ATTEMPT = Duration.ofMillis(20);
    static final Duration DEADLINE = Duration.ofSeconds(10);

    final int shards;
    final int slots;
    final TestCluster cluster;
    final List<ReplicaGroup> groups = new ArrayList<>();
    final AtomicReferenceArray<ReplicatedCacheShard> members;
    final AtomicIntegerArray dead = new AtomicIntegerArray(NODES);
    /** Nodes whose members' threads stand still (a stalled process: its memory still takes the leader's WRITEs). */
    final AtomicIntegerArray paused = new AtomicIntegerArray(NODES);
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final Thread[] threads;
    final long[] applied;
    final long[] duplicates;
    final long[] takeovers;
    final long[] fromTable;
    final int[] size;

    /**
     * A store of {@code shards} shards whose logs hold {@code slots} entries each. A follower that falls further
     * behind than its ring (a loaded host holding its thread up while the leader goes on) is brought back from the
     * leader member's snapshot image.
     */
    ReplicatedShards(int shards, int slots, SimOptions options) {
        this.shards = shards;
        this.slots = slots;
        this.cluster = new TestCluster(SimFabric::new, options, NODES, c -> c.segmentSize(8 << 20));
        for (int s = 0; s < shards; s++) {
            groups.add(ReplicaGroup.of(0, 1, 2).onPlane(1 + s));
        }
        members = new AtomicReferenceArray<>(shards * NODES);
        threads = new Thread[shards * NODES];
        applied = new long[shards * NODES];
        duplicates = new long[shards * NODES];
        takeovers = new long[shards * NODES];
        fromTable = new long[shards * NODES];
        size = new int[shards * NODES];
    }

    /** {@return the index of shard {@code shard}'s member on {@code node} in the per-member arrays} */
    static int member(int shard, int node) {
        return shard * NODES + node;
    }

    /** Starts every member and waits until node 0 leads every shard. */
    void start() {
        for (int s = 0; s < shards; s++) {
            for (int n = 0; n < NODES; n++) {
                int shard = s;
                int node = n;
                int m = member(s, n);
                ReplicaGroup group = groups.get(s);
                threads[m] = ThreadTime.newThread("shard-" + s + "-node-" + n, () -> {
                    try (ComputeThread t = cluster.thread(node);
                         ComputeThread lt = cluster.thread(node, group.plane())) {
                        ReplicatedCacheShard server = ReplicatedCacheShard.create(cluster.node(node), t, lt, group,
                                "mc-" + shard, shard, shards, slots, MAX_ITEM, () -> 1_700_000_000L, SUSPECT_AFTER,
                                COMMIT, TAKEOVER);
                        members.set(m, server);
                        while (!stop.get()) {
                            if (dead.get(node) == 1) {
                                return;
                            }
                            if (paused.get(node) == 1) {
                                ThreadTime.parkNanos(null, 100_000);
                                continue;
                            }
                            if (server.runOnce() == 0) {
                                ThreadTime.parkNanos(null, 2_000);
                            }
                        }
                        server.runOnce();
                        applied[m] = server.machine().applied();
                        duplicates[m] = server.machine().duplicates();
                        size[m] = server.machine().size();
                        takeovers[m] = server.takeovers();
                        fromTable[m] = server.answeredFromTable();
                        server.close();
                    } catch (Throwable e) {
                        if (dead.get(node) == 0) {
                            failure.compareAndSet(null, new AssertionError("shard " + shard + "'s member on node " + node
                                    + " failed", e));
                        }
                    }
                });
                threads[m].start();
            }
        }
        long deadline = ThreadTime.nanoTime() + 30 * SECOND;
        for (int s = 0; s < shards; s++) {
            while (members.get(member(s, 0)) == null || members.get(member(s, 0)).knownLeader() != 0) {
                if (failure.get() != null) {
                    throw new AssertionError("a member failed", failure.get());
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new AssertionError("node 0 did not take shard " + s + " over");
                }
                ThreadTime.parkNanos(null, 50_000);
            }
        }
    }

    /**
     * A handle run by node {@code home}'s process, client {@code client}: it reaches live members only, and once
     * {@code home} is killed each of its calls ends at its next routing with an exception (a dead process sends
     * nothing).
     */
    ReplicatedCacheEngine engine(int home, long client) {
        return new ReplicatedCacheEngine(groups, (shard, node) -> {
            if (dead.get(home) == 1) {
                throw new IllegalStateException("node " + home + " was killed: its process sends nothing");
            }
            return dead.get(node) == 1 ? null : members.get(member(shard, node));
        }, client, MAX_ITEM, ATTEMPT, DEADLINE);
    }

    /** {@return each member's view (the leader it names, its takeovers, the last failed one's cause) and stack} */
    String describe() {
        StringBuilder b = new StringBuilder();
        for (int s = 0; s < shards; s++) {
            for (int n = 0; n < NODES; n++) {
                ReplicatedCacheShard m = members.get(member(s, n));
                b.append("\n shard ").append(s).append(" node ").append(n).append(dead.get(n) == 1 ? " (dead)" : "");
                if (m != null) {
                    b.append(": names ").append(m.knownLeader()).append(", ").append(m.takeovers())
                            .append(" takeovers, ").append(m.failedTakeovers()).append(" failed (")
                            .append(m.lastTakeoverFailure()).append(")");
                }
                Thread th = threads[member(s, n)];
                if (th != null && th.isAlive()) {
                    for (StackTraceElement e : th.getStackTrace()) {
                        b.append("\n    at ").append(e);
                    }
                }
            }
        }
        return b.toString();
    }

    /** {@return whether {@code node} leads {@code shard} as its own member believes} */
    boolean leads(int shard, int node) {
        ReplicatedCacheShard m = members.get(member(shard, node));
        return m != null && m.knownLeader() == node;
    }

    /**
     * Kills node {@code node}'s process wherever its members are, an append or a commit half done included: the
     * node stops answering (every request to it ends with the transport timeout, its own posts fail), then its
     * members' threads stop at their next step (whatever they throw meanwhile is the dead process's) and its
     * handles send nothing more.
     */
    void kill(int node) throws InterruptedException {
        ((SimFabric) cluster.fabric()).stopAnswering(node);
        dead.set(node, 1);
        for (int s = 0; s < shards; s++) {
            Thread th = threads[member(s, node)];
            if (!ThreadTime.join(th, 10 * SECOND)) {
                throw new AssertionError(th.getName() + " did not stop");
            }
        }
    }

    /** Stops every live member after a last round, recording its counts. */
    void stopAll() throws InterruptedException {
        ThreadTime.parkNanos(null, 5_000_000);
        stop.set(true);
        for (Thread th : threads) {
            if (!ThreadTime.join(th, 10 * SECOND)) {
                throw new AssertionError(th.getName() + " did not stop");
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("a member failed", failure.get());
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
