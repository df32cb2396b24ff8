package io.remus.ds.replicate;

import io.remus.core.fabric.Plane;
import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A replica group on a simulated cluster, run inside a virtual-time run: one thread per member that creates its
 * {@link LogReplica} and applies committed entries until stopped (recording what it applied), and a leader
 * thread. Entry {@code v} is {@code 8 + v % 41} bytes: {@code v} then the bytes {@code v + j}; every replica's
 * state machine checks them.
 */
final class ReplicaHarness implements AutoCloseable {
    static final String NAME = "test-log";
    static final long SECOND = 1_000_000_000L;

    final TestCluster cluster;
    final ReplicaGroup group;
    final int slots;
    final int maxEntryBytes;
    final LogReplica[] replicas;
    final List<List<Long>> applied = new ArrayList<>();
    final AtomicIntegerArray frozen;
    final AtomicIntegerArray grantTo;
    final AtomicIntegerArray granted;
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final List<Thread> threads = new ArrayList<>();
    final AtomicIntegerArray created;
    /** Each member's agent's leader after its last poll (agents run when {@link #suspectAfter} is positive). */
    final AtomicIntegerArray leaderView;
    final ReplicaAgent[] agents;
    /** 1: member's thread restarts its replica with an empty log and state machine (then sets 2). */
    final AtomicIntegerArray restart;
    /** 1: member's thread stops at once, as its process is killed ({@link #killAndRejoin}). */
    final AtomicIntegerArray kill;
    /** How long a {@link #killAndRejoin} lets the restarted member wait for the others' promised terms. */
    volatile Duration rejoinTimeout = Duration.ofSeconds(10);
    /** Each member's current thread. */
    final Thread[] members;
    /** READs in a row without a heartbeat change before an agent suspects a member; 0: no agents. */
    volatile int suspectAfter;
    /** The capacity of each member's snapshot region; 0: none (the machines take no snapshots). */
    volatile int snapshotBytes;
    /** A member takes a snapshot once it applied this many entries past its region's image; 0: never. */
    volatile int snapshotEvery;
    /** Bytes of padding each snapshot image carries after the values (a large state). */
    volatile int ballast;
    /** Each member's restores, with the entries each restored image covered. */
    final List<List<Long>> restoredCovers = new ArrayList<>();

    ReplicaHarness(SimOptions options, int nodes, ReplicaGroup group, int slots, int maxEntryBytes) {
        this(options, nodes, group, slots, maxEntryBytes, b -> { });
    }

    ReplicaHarness(SimOptions options, int nodes, ReplicaGroup group, int slots, int maxEntryBytes,
                   java.util.function.Consumer<io.remus.core.config.ClusterConfig.Builder> tweak) {
        this.cluster = new TestCluster(SimFabric::new, options, nodes, tweak);
        this.group = group;
        this.slots = slots;
        this.maxEntryBytes = maxEntryBytes;
        int n = group.size();
        this.replicas = new LogReplica[n];
        this.frozen = new AtomicIntegerArray(n);
        this.grantTo = new AtomicIntegerArray(n);
        this.granted = new AtomicIntegerArray(n);
        this.created = new AtomicIntegerArray(n);
        this.leaderView = new AtomicIntegerArray(n);
        this.agents = new ReplicaAgent[n];
        this.restart = new AtomicIntegerArray(n);
        this.kill = new AtomicIntegerArray(n);
        this.members = new Thread[n];
        for (int k = 0; k < n; k++) {
            applied.add(new ArrayList<>());
            restoredCovers.add(java.util.Collections.synchronizedList(new ArrayList<>()));
            grantTo.set(k, -1);
            granted.set(k, -1);
            leaderView.set(k, -1);
        }
    }

    /** {@return entry {@code v}'s bytes} */
    static MemorySegment entry(long v) {
        int length = (int) (8 + v % 41);
        MemorySegment e = MemorySegment.ofArray(new byte[length]);
        e.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, v);
        for (int j = 8; j < length; j++) {
            e.set(ValueLayout.JAVA_BYTE, j, (byte) (v + j));
        }
        return e;
    }

    /** Starts every member's replica thread; each applies unless frozen, and switches its grant when asked. */
    void startReplicas() {
        for (int k = 0; k < group.size(); k++) {
            startMember(k, false);
        }
    }

    /**
     * Kills member {@code k}'s process and restarts it with new memory: its thread stops at once (nothing closed but
     * its compute thread), its node crashes ({@link TestCluster#restart}), and a new thread makes its log anew with
     * {@link LogReplica#rejoin} on the new node and goes on as the others, its applied values starting again.
     */
    void killAndRejoin(int k) throws InterruptedException {
        kill.set(k, 1);
        if (!ThreadTime.join(members[k], 10 * SECOND)) {
            throw new AssertionError("replica " + group.member(k) + " did not stop");
        }
        created.set(k, 0);
        kill.set(k, 0);
        cluster.restart(group.member(k));
        applied.get(k).clear();
        startMember(k, true);
    }

    private void startMember(int member, boolean rejoin) {
        int node = group.member(member);
        Thread th = ThreadTime.newThread("replica-" + node + (rejoin ? "-rejoined" : ""), () -> {
                try (ComputeThread t = cluster.thread(node, Plane.REPLICATION)) {
                    List<Long> mine = applied.get(member);
                    StateMachine machine = new Machine(node, mine, restoredCovers.get(member), ballast);
                    LogReplica r = rejoin
                            ? LogReplica.rejoin(cluster.node(node), t, group, NAME, slots, maxEntryBytes, snapshotBytes,
                                    machine, rejoinTimeout)
                            : LogReplica.create(cluster.node(node), t, group, NAME, slots, maxEntryBytes, snapshotBytes,
                                    machine);
                    replicas[member] = r;
                    ReplicaAgent agent = suspectAfter > 0 ? ReplicaAgent.open(r, NAME, suspectAfter, Duration.ofSeconds(10)) : null;
                    agents[member] = agent;
                    created.set(member, 1);
                    while (!stop.get()) {
                        if (kill.get(member) == 1) {
                            return;
                        }
                        if (restart.get(member) == 1) {
                            if (agent != null) {
                                agent.close();
                            }
                            mine.clear();
                            r = LogReplica.restart(cluster.node(node), t, group, NAME, machine);
                            replicas[member] = r;
                            agent = suspectAfter > 0 ? ReplicaAgent.open(r, NAME, suspectAfter, Duration.ofSeconds(10)) : null;
                            agents[member] = agent;
                            restart.set(member, 2);
                        }
                        if (agent != null) {
                            leaderView.set(member, agent.poll());
                        }
                        int g = grantTo.get(member);
                        if (g >= 0) {
                            r.grantWriteTo(g);
                            grantTo.set(member, -1);
                            granted.set(member, g);
                        }
                        if (frozen.get(member) == 0 && r.applyCommitted() > 0) {
                            if (snapshotEvery > 0 && r.applied() - r.snapshotCovers() >= snapshotEvery) {
                                r.takeSnapshot();
                            }
                            continue;
                        }
                        ThreadTime.parkNanos(null, 1_000);
                    }
                    if (frozen.get(member) == 0) {
                        r.applyCommitted();
                    }
                    if (agent != null) {
                        agent.close();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
        members[member] = th;
        threads.add(th);
        th.start();
    }

    /** Waits until every replica has created its log. */
    void awaitCreated() {
        for (int k = 0; k < group.size(); k++) {
            long deadline = ThreadTime.nanoTime() + 10 * SECOND;
            while (created.get(k) == 0) {
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new AssertionError("replica " + group.member(k) + " did not create its log", failure.get());
                }
                ThreadTime.parkNanos(null, 1_000);
            }
        }
    }

    /** Restarts member {@code k}'s replica with an empty log and state machine, and waits until it has. */
    void restartReplica(int k) {
        restart.set(k, 1);
        long deadline = ThreadTime.nanoTime() + 10 * SECOND;
        while (restart.get(k) != 2) {
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new AssertionError("replica " + group.member(k) + " did not restart");
            }
            ThreadTime.parkNanos(null, 1_000);
        }
    }

    /** Waits until member {@code k}'s agent takes {@code leader} as leader. */
    void awaitLeaderView(int k, int leader) {
        long deadline = ThreadTime.nanoTime() + 10 * SECOND;
        while (leaderView.get(k) != leader) {
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new AssertionError("member " + group.member(k) + " takes " + leaderView.get(k) + " as leader, not " + leader);
            }
            ThreadTime.parkNanos(null, 1_000);
        }
    }

    /** Starts {@code body} on a thread with a compute thread of {@code node}; {@link #join} waits for it. */
    Thread startOn(int node, AtomicReference<Throwable> ended, ThreadBody body) {
        Thread th = ThreadTime.newThread("program-" + node, () -> {
            try (ComputeThread t = cluster.thread(node, Plane.REPLICATION)) {
                body.run(t);
            } catch (Throwable e) {
                ended.set(e);
            }
        });
        th.start();
        return th;
    }

    /** Waits for a thread of {@link #startOn}; rethrows its failure. */
    static void join(Thread th, AtomicReference<Throwable> ended) throws InterruptedException {
        if (!ThreadTime.join(th, 60 * SECOND)) {
            throw new AssertionError(th.getName() + " did not finish");
        }
        if (ended.get() != null) {
            throw new AssertionError(th.getName() + " failed", ended.get());
        }
    }

    /** Asks member {@code k}'s thread to grant write access to {@code leader} and waits until it has. */
    void switchGrant(int k, int leader) {
        grantTo.set(k, leader);
        long deadline = ThreadTime.nanoTime() + 10 * SECOND;
        while (granted.get(k) != leader) {
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new AssertionError("replica " + group.member(k) + " did not switch its grant");
            }
            ThreadTime.parkNanos(null, 500);
        }
    }

    /** Runs {@code body} on a thread with a compute thread of {@code node} and waits for it. */
    void runOn(int node, ThreadBody body) throws InterruptedException {
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread th = ThreadTime.newThread("leader-" + node, () -> {
            try (ComputeThread t = cluster.thread(node, Plane.REPLICATION)) {
                body.run(t);
            } catch (Throwable e) {
                ended.set(e);
            }
        });
        th.start();
        if (!ThreadTime.join(th, 60 * SECOND)) {
            throw new AssertionError("the leader thread did not finish");
        }
        if (ended.get() != null) {
            throw new AssertionError("the leader thread failed", ended.get());
        }
    }

    /** Lets replicas run {@code nanos} more, stops them and joins them; rethrows a replica's failure. */
    void stopReplicas(long nanos) throws InterruptedException {
        ThreadTime.parkNanos(null, nanos);
        stop.set(true);
        for (Thread th : threads) {
            if (!ThreadTime.join(th, 10 * SECOND)) {
                throw new AssertionError(th.getName() + " did not stop");
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("a replica failed", failure.get());
        }
    }

    @Override
    public void close() {
        cluster.close();
    }

    /**
     * The members' state machine: the values of the entries applied, in order, each checked whole at its index.
     * A snapshot image is the count, the values, then {@code ballast} bytes {@code count + j}; a restore checks
     * all of it (so a torn image restored would fail the run; the values must equal their indexes, as the snapshot
     * tests append them) and replaces the values.
     */
    static final class Machine implements StateMachine {
        private final int node;
        private final List<Long> mine;
        private final List<Long> restores;
        private final int ballast;

        Machine(int node, List<Long> mine, List<Long> restores, int ballast) {
            this.node = node;
            this.mine = mine;
            this.restores = restores;
            this.ballast = ballast;
        }

        @Override
        public void apply(long index, MemorySegment e) {
            long v = e.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
            if (index != mine.size() || e.byteSize() != 8 + v % 41) {
                throw new AssertionError("replica " + node + " applied index " + index + " of " + e.byteSize()
                        + " bytes, value " + v + ", after " + mine.size() + " entries");
            }
            for (int j = 8; j < e.byteSize(); j++) {
                if (e.get(ValueLayout.JAVA_BYTE, j) != (byte) (v + j)) {
                    throw new AssertionError("replica " + node + " applied a torn entry " + index);
                }
            }
            mine.add(v);
        }

        @Override
        public MemorySegment snapshot() {
            int n = mine.size();
            MemorySegment image = MemorySegment.ofArray(new byte[8 + 8 * n + ballast]);
            image.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, n);
            for (int k = 0; k < n; k++) {
                image.set(ValueLayout.JAVA_LONG_UNALIGNED, 8 + 8L * k, mine.get(k));
            }
            for (int j = 0; j < ballast; j++) {
                image.set(ValueLayout.JAVA_BYTE, 8 + 8L * n + j, (byte) (n + j));
            }
            return image;
        }

        @Override
        public void restore(MemorySegment image, long covers) {
            long n = image.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
            if (n != covers || image.byteSize() != 8 + 8 * n + ballast) {
                throw new AssertionError("replica " + node + " restored an image of " + image.byteSize() + " bytes holding "
                        + n + " values as covering " + covers + " entries");
            }
            for (int j = 0; j < ballast; j++) {
                if (image.get(ValueLayout.JAVA_BYTE, 8 + 8 * n + j) != (byte) (n + j)) {
                    throw new AssertionError("replica " + node + " restored a torn image (ballast byte " + j + ")");
                }
            }
            List<Long> values = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                long v = image.get(ValueLayout.JAVA_LONG_UNALIGNED, 8 + 8L * k);
                if (v != k) {
                    throw new AssertionError("replica " + node + " restored value " + v + " at " + k + " (a torn image)");
                }
                values.add(v);
            }
            mine.clear();
            mine.addAll(values);
            restores.add(covers);
        }
    }

    /** Work of the leader's thread. */
    interface ThreadBody {
        void run(ComputeThread t) throws Exception;
    }
}
