package io.remus.bench.replicate;

import io.remus.core.fabric.Plane;
import io.remus.bench.engines.InProcessNodes;
import io.remus.bench.engines.SimTime;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.LogLeader;
import io.remus.ds.replicate.LogReplica;
import io.remus.ds.replicate.ReplicaAgent;
import io.remus.ds.replicate.ReplicaGroup;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The replicated log's fail-over time, measured on the simulator in virtual time: Mu's leader change (Aguilera,
 * Ben-David, Guerraoui, Marathe, Xygkis, Zablotchi, "Microsecond Consensus for Microsecond Applications", OSDI 2020)
 * as {@code io.remus.ds.replicate} implements it, through that package's public API only.
 *
 * <p>A group of {@code 2f + 1} nodes, node {@code i} member {@code i}. Every member's own thread creates its log
 * ({@link LogReplica#create}), opens its {@link ReplicaAgent} and then loops: one {@link ReplicaAgent#poll}, one
 * {@link LogReplica#applyCommitted}, a pause of {@value #POLL_NANOS} ns of virtual time. Once every agent elected
 * node 0, a program thread on node 0 (its second compute thread) takes the group over ({@link LogLeader#takeOver}:
 * the agents grant it), appends {@code appends} entries one at a time, and crashes right after the last returns:
 * node 0's threads stop (its agent no longer polls, so its heartbeat stops), and for
 * {@link LogFailOverConfig.Crash#NODE} its node stops answering ({@link SimFabric#stopAnswering}). A program thread
 * on node 1 (the lowest survivor, which every survivor's agent elects next) waits until node 1's agent elected it,
 * calls {@link LogLeader#takeOver}, appends one entry, then brings back every survivor the takeover left detached
 * ({@link LogLeader#reattach}: those whose promise came after a majority's) and flushes the commit count. The run
 * records, in virtual time from the crash: when
 * node 1's agent first suspected node 0 (detection), when every survivor's had, when {@code takeOver} returned
 * (election and takeover), and when the first append returned (the first new commit); and the RDMA operations,
 * round trips and bytes of node 1's compute thread over {@code takeOver}. It ends once every survivor applied the
 * recovered log and the new entry.
 *
 * <p>Where the time goes, by construction: under {@code NODE}, a heartbeat READ of the crashed node fails only once
 * the simulator's transport timeout has passed, so detection is that timeout (plus at most a heartbeat READ's round
 * trip); {@code takeOver} then looks every member's log up, node 0's too, one after another, and that lookup's READ
 * fails only after the transport timeout again. Under {@code PROCESS}, detection is {@code suspectAfter} heartbeat
 * READs of a survivor's agent, each a round trip plus the member loop's pause and CPU charges, and the takeover
 * needs no timeout.
 *
 * <p>Runs only in virtual time ({@link SimTime#isVirtual()}), on a {@link SimFabric} of its own whose transport
 * timeout is the config's. Every wait is bounded: calls by {@link LogBenchmark#CALL_TIMEOUT}, the members' start,
 * the election and the takeover by {@link LogBenchmark#START_BOUND}, the survivors' catch-up by 100 ms, all in
 * virtual time.
 */
public final class LogFailOverBenchmark {
    /** How long a member's thread pauses between two rounds of poll and apply, in nanoseconds of virtual time. */
    public static final long POLL_NANOS = 1_000;
    /** The node that leads first and crashes. */
    public static final int OLD_LEADER = 0;
    /** The node that takes over: the lowest survivor. */
    public static final int NEW_LEADER = 1;
    static final String NAME = "failover-log";
    private static final Duration CALL_TIMEOUT = LogBenchmark.CALL_TIMEOUT;
    private static final Duration START_BOUND = LogBenchmark.START_BOUND;
    /** How long the survivors may take to apply the log once the new leader flushed its commit count. */
    private static final Duration CATCH_UP_BOUND = Duration.ofMillis(100);

    private LogFailOverBenchmark() {
    }

    /**
     * Runs one fail-over in virtual time.
     *
     * @param config what to run
     * @param model  the simulator's cost model; it must charge time
     * @param time   the clock: virtual time under {@code model} ({@link SimTime#virtual})
     * @return the measurements
     * @throws BadArgumentException naming the clock, when {@code time} is the host's
     * @throws RemusException       when a member or a leader failed, or a wait passed its bound
     * @throws InterruptedException when interrupted
     */
    public static LogFailOverResult run(LogFailOverConfig config, SimCostModel model, SimTime time)
            throws InterruptedException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(time, "time");
        if (!time.isVirtual()) {
            throw new BadArgumentException("the replicated log's fail-over runs in virtual time only, got the host's clock");
        }
        SimOptions options = time.simOptions(SimOptions.defaults().withCostModel(model)
                .withTransportTimeoutNanos(config.transportTimeoutNanos()));
        return time.call(() -> {
            try (SimFabric fabric = new SimFabric(options)) {
                return new Run(fabric, config).measure();
            }
        });
    }

    /** The state of one run, shared by the members', the two leaders' and the run's own threads. */
    private static final class Run {
        private final SimFabric fabric;
        private final LogFailOverConfig config;
        private final ReplicaGroup group;
        private final InProcessNodes cluster;
        private final RemusNode[] nodes;
        private final AtomicIntegerArray created;
        private final AtomicIntegerArray leaderView;
        private final AtomicLongArray applied;
        private final AtomicLongArray suspectedAt;
        private final AtomicLong falseSuspicions = new AtomicLong();
        private final AtomicBoolean crashed = new AtomicBoolean();
        private final AtomicLong crashAt = new AtomicLong(-1);
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        Run(SimFabric fabric, LogFailOverConfig config) {
            this.fabric = fabric;
            this.config = config;
            int n = config.replicas();
            int[] members = new int[n];
            for (int i = 0; i < n; i++) {
                members[i] = i;
            }
            this.group = ReplicaGroup.of(members);
            this.created = new AtomicIntegerArray(n);
            this.leaderView = new AtomicIntegerArray(n);
            this.applied = new AtomicLongArray(n);
            this.suspectedAt = new AtomicLongArray(n);
            for (int k = 0; k < n; k++) {
                leaderView.set(k, -1);
                suspectedAt.set(k, -1);
            }
            long slot = LogBenchmarkConfig.slotBytes(config.entryBytes());
            long logBytes = LogBenchmarkConfig.logBytes(config.slots(), config.entryBytes());
            int buffer = (int) Math.max(256 << 10, Math.max((4L * n + 2) * slot, 64L * n));
            long segment = Math.max(8L << 20, 4 * logBytes);
            ClusterConfig base = InProcessNodes.config(n, segment, 2).opsInFlightPerThread(32)
                    .bufferSizePerThread(buffer).operationTimeout(CALL_TIMEOUT).build();
            this.cluster = InProcessNodes.start(fabric, base);
            this.nodes = cluster.nodes();
        }

        LogFailOverResult measure() throws InterruptedException {
            List<Thread> members = new ArrayList<>();
            try {
                for (int k = 0; k < group.size(); k++) {
                    int member = k;
                    Thread t = ThreadTime.newThread("failover-member-" + member, () -> member(member));
                    members.add(t);
                    t.start();
                }
                await(() -> allSee(OLD_LEADER), "every member's agent elected node " + OLD_LEADER);
                Thread old = ThreadTime.newThread("failover-old-leader", this::leadThenCrash);
                AtomicReference<LogFailOverResult> result = new AtomicReference<>();
                Thread next = ThreadTime.newThread("failover-new-leader", () -> {
                    try {
                        result.set(takeOver());
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                old.start();
                next.start();
                long bound = CALL_TIMEOUT.toNanos() * (config.appends() + 4) + 3 * START_BOUND.toNanos();
                join(old, bound);
                join(next, bound);
                rethrow("a leader");
                LogFailOverResult r = result.get();
                long want = r.recovered() + 1;
                await(() -> {
                    for (int k = 0; k < group.size(); k++) {
                        if (k != OLD_LEADER && applied.get(k) < want) {
                            return false;
                        }
                    }
                    return true;
                }, CATCH_UP_BOUND, "every survivor applied " + want + " entries");
                long least = Long.MAX_VALUE;
                long last = -1;
                for (int k = 0; k < group.size(); k++) {
                    if (k != OLD_LEADER) {
                        least = Math.min(least, applied.get(k));
                        last = Math.max(last, suspectedAt.get(k) - crashAt.get());
                    }
                }
                return new LogFailOverResult(config, r.detectedNanos(), last, r.tookOverNanos(), r.firstCommitNanos(),
                        r.takeoverPosted(), r.takeoverRoundTrips(), r.takeoverBytesRead(), r.takeoverBytesWritten(),
                        r.recovered(), r.rewriteWrites(), falseSuspicions.get(), least);
            } finally {
                stop.set(true);
                for (Thread t : members) {
                    if (!ThreadTime.join(t, START_BOUND.toNanos())) {
                        failure.compareAndSet(null, new RemoteTimeoutException(t.getName() + " did not stop within "
                                + START_BOUND));
                    }
                }
                close();
                rethrow("a member");
            }
        }

        /** A member's thread: creates its log and agent, then polls and applies until stopped (node 0: until it crashes). */
        private void member(int member) {
            int node = group.member(member);
            try (ComputeThread t = nodes[node].newComputeThread(Plane.REPLICATION)) {
                long[] count = new long[1];
                LogReplica replica = LogReplica.create(nodes[node], t, group, NAME, config.slots(), config.entryBytes(),
                        (index, entry) -> count[0]++);
                try (ReplicaAgent agent = ReplicaAgent.open(replica, NAME, config.suspectAfter(), START_BOUND)) {
                    created.set(member, 1);
                    while (!stop.get()) {
                        if (node == OLD_LEADER && crashed.get()) {
                            ThreadTime.parkNanos(this, POLL_NANOS);
                            continue;
                        }
                        leaderView.set(member, agent.poll());
                        if (node != OLD_LEADER && agent.isSuspected(OLD_LEADER)) {
                            if (!crashed.get()) {
                                falseSuspicions.incrementAndGet();
                            } else if (suspectedAt.get(member) < 0) {
                                suspectedAt.set(member, ThreadTime.nanoTime());
                            }
                        }
                        if (replica.applyCommitted() > 0) {
                            applied.set(member, count[0]);
                        }
                        ThreadTime.parkNanos(this, POLL_NANOS);
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }

        /** Node 0's program: takes the group over, appends, and crashes right after its last append returned. */
        private void leadThenCrash() {
            try (ComputeThread t = nodes[OLD_LEADER].newComputeThread(Plane.REPLICATION)) {
                LogLeader leader = LogLeader.takeOver(t, group, NAME, START_BOUND);
                try {
                    MemorySegment entry = entry();
                    for (long i = 0; i < config.appends(); i++) {
                        entry.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, i);
                        leader.append(entry, CALL_TIMEOUT);
                    }
                    crashAt.set(ThreadTime.nanoTime());
                    if (config.crash() == LogFailOverConfig.Crash.NODE) {
                        fabric.stopAnswering(OLD_LEADER);
                    }
                    crashed.set(true);
                } finally {
                    leader.close();
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                crashed.set(true);
            }
        }

        /** Node 1's program: waits until its agent elected it, takes over, appends one entry. */
        private LogFailOverResult takeOver() {
            await(() -> crashed.get() && leaderView.get(NEW_LEADER) == NEW_LEADER || failure.get() != null,
                    "node " + NEW_LEADER + "'s agent elected it after the crash");
            rethrow("a member");
            long crash = crashAt.get();
            try (ComputeThread t = nodes[NEW_LEADER].newComputeThread(Plane.REPLICATION)) {
                long detected = suspectedAt.get(NEW_LEADER) - crash;
                long[] before = LogBenchmark.posted(t);
                long trips = t.roundTrips();
                long read = t.bytesRead();
                long written = t.bytesWritten();
                try (LogLeader leader = LogLeader.takeOver(t, group, NAME, START_BOUND)) {
                    long tookOver = ThreadTime.nanoTime() - crash;
                    long[] after = LogBenchmark.posted(t);
                    for (int op = 0; op < after.length; op++) {
                        after[op] -= before[op];
                    }
                    trips = t.roundTrips() - trips;
                    read = t.bytesRead() - read;
                    written = t.bytesWritten() - written;
                    long recovered = leader.appended();
                    long rewrites = leader.rewriteWrites();
                    MemorySegment entry = entry();
                    entry.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, recovered);
                    leader.append(entry, CALL_TIMEOUT);
                    long firstCommit = ThreadTime.nanoTime() - crash;
                    for (int k = 0; k < group.size(); k++) {
                        int node = group.member(k);
                        if (node != OLD_LEADER && node != NEW_LEADER && !leader.isAttached(node)
                                && !leader.reattach(node, CALL_TIMEOUT)) {
                            throw new RemusException("survivor " + node + " could not be attached again after the takeover");
                        }
                    }
                    leader.flushCommit(CALL_TIMEOUT);
                    return new LogFailOverResult(config, detected, -1, tookOver, firstCommit, after, trips, read, written,
                            recovered, rewrites, 0, 0);
                }
            }
        }

        private MemorySegment entry() {
            MemorySegment entry = MemorySegment.ofArray(new byte[config.entryBytes()]);
            for (int j = 0; j < config.entryBytes(); j++) {
                entry.set(ValueLayout.JAVA_BYTE, j, (byte) (j * 31 + 7));
            }
            return entry;
        }

        private boolean allSee(int leader) {
            for (int k = 0; k < group.size(); k++) {
                if (leaderView.get(k) != leader) {
                    return false;
                }
            }
            return true;
        }

        private void await(java.util.function.BooleanSupplier done, String what) {
            await(done, START_BOUND, what);
        }

        private void await(java.util.function.BooleanSupplier done, Duration bound, String what) {
            long deadline = ThreadTime.nanoTime() + bound.toNanos();
            while (!done.getAsBoolean()) {
                rethrow("a member");
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("not within " + bound + " of virtual time: " + what);
                }
                ThreadTime.parkNanos(this, POLL_NANOS);
            }
        }

        private void join(Thread t, long bound) throws InterruptedException {
            if (!ThreadTime.join(t, bound)) {
                throw new RemoteTimeoutException(t.getName() + " did not finish within " + bound + " ns of virtual time");
            }
        }

        private void rethrow(String who) {
            Throwable e = failure.get();
            if (e instanceof RuntimeException r) {
                throw r;
            }
            if (e instanceof Error err) {
                throw err;
            }
            if (e != null) {
                throw new RemusException(who + " failed: " + e, e);
            }
        }

        private void close() {
            cluster.close();
        }
    }
}
