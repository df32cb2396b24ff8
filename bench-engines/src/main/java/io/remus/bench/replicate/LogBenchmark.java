package io.remus.bench.replicate;

import io.remus.core.fabric.Plane;
import io.remus.bench.engines.InProcessNodes;
import io.remus.bench.engines.SimTime;
import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.LogLeader;
import io.remus.ds.replicate.LogReplica;
import io.remus.ds.replicate.ReplicaGroup;
import org.HdrHistogram.Histogram;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The replicated-log benchmark: Mu's common case (Aguilera, Ben-David, Guerraoui, Marathe, Xygkis, Zablotchi,
 * "Microsecond Consensus for Microsecond Applications", OSDI 2020) measured on the simulator in virtual time.
 * A group of {@code 2f + 1} nodes (node 0 leads) each creates its log ({@link LogReplica#create}) and grants
 * write access to the leader ({@link LogReplica#grantWriteTo}, Mu's permission switch); each member's applier
 * thread applies committed entries to a state machine that counts them, polling its log every
 * {@value #POLL_NANOS} ns of virtual time while it finds nothing new. The leader, on a compute thread of its own
 * on node 0, opens the log ({@link LogLeader#open}) and appends {@code appends} entries of {@code entryBytes},
 * one at a time, each call timed from its start to its return (a majority holds the entry); then it flushes the
 * commit count ({@link LogLeader#flushCommit}) and the run ends once every member applied every entry.
 *
 * <p>Only the log's public API is used, and the leader's RDMA cost is read from its compute thread's counters
 * around the appends: {@code 2f} WRITEs of one slot and 1 round trip per append while the log has not wrapped
 * (as {@link LogLeader#append} states), plus a round trip of 8-byte READs of the followers' applied counts now
 * and then once it has.
 *
 * <p>Runs only in virtual time ({@link SimTime#isVirtual()}), on a {@link SimFabric} of its own under the given
 * cost model, so that its figures depend only on the model, the code and the seed. Every wait is bounded:
 * an append or flush by {@link #CALL_TIMEOUT}, the members' start and the appliers' catch-up by
 * {@link #START_BOUND}, all in virtual time.
 */
public final class LogBenchmark {
    /** How long one append or commit flush may wait for a majority. */
    public static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    /** How long the members may take to create their logs, and to apply every entry after the last append. */
    public static final Duration START_BOUND = Duration.ofSeconds(30);
    /** How long an applier that found nothing new waits before it looks at its log again, in nanoseconds. */
    public static final long POLL_NANOS = 1_000;
    /** The logs' name in every member's name directory. */
    static final String NAME = "bench-log";
    private static final long TERM = 1;
    private static final int LEADER = 0;

    private LogBenchmark() {
    }

    /**
     * Runs the benchmark in virtual time.
     *
     * @param config what to run
     * @param model  the simulator's cost model; it must charge time
     * @param time   the clock: virtual time under {@code model} ({@link SimTime#virtual})
     * @return the measurements
     * @throws BadArgumentException naming the clock, when {@code time} is the host's
     * @throws RemusException       when a member or the leader failed, or a wait passed its bound
     * @throws InterruptedException when interrupted
     */
    public static LogBenchmarkResult run(LogBenchmarkConfig config, SimCostModel model, SimTime time)
            throws InterruptedException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(time, "time");
        if (!time.isVirtual()) {
            throw new BadArgumentException("the replicated-log benchmark runs in virtual time only, got the host's clock");
        }
        SimOptions options = time.simOptions(SimOptions.defaults().withCostModel(model));
        return time.call(() -> {
            try (SimFabric fabric = new SimFabric(options)) {
                return new Run(fabric, config).measure();
            }
        });
    }

    /** The state of one run, shared by the leader's, the appliers' and the run's own threads. */
    /** {@return the operations {@code t} posted so far, by {@link Opcode} ordinal} */
    static long[] posted(ComputeThread t) {
        long[] counts = new long[Opcode.values().length];
        for (Opcode op : Opcode.values()) {
            counts[op.ordinal()] = t.postedOperations(op);
        }
        return counts;
    }

    private static final class Run {
        private final LogBenchmarkConfig config;
        private final ReplicaGroup group;
        private final InProcessNodes cluster;
        private final RemusNode[] nodes;
        private final AtomicIntegerArray created;
        private final AtomicLongArray applied;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        Run(SimFabric fabric, LogBenchmarkConfig config) {
            this.config = config;
            int n = config.replicas();
            int[] members = new int[n];
            for (int i = 0; i < n; i++) {
                members[i] = i;
            }
            this.group = ReplicaGroup.of(members);
            this.created = new AtomicIntegerArray(n);
            this.applied = new AtomicLongArray(n);
            long slot = LogBenchmarkConfig.slotBytes(config.entryBytes());
            int buffer = (int) Math.max(256 << 10, (4L * config.followers() + 2) * slot);
            long segment = Math.max(8L << 20, 4 * LogBenchmarkConfig.logBytes(config.slots(), config.entryBytes()));
            ClusterConfig base = InProcessNodes.config(n, segment, 2).opsInFlightPerThread(32)
                    .bufferSizePerThread(buffer).operationTimeout(CALL_TIMEOUT).build();
            this.cluster = InProcessNodes.start(fabric, base);
            this.nodes = cluster.nodes();
        }

        LogBenchmarkResult measure() throws InterruptedException {
            List<Thread> appliers = new ArrayList<>();
            try {
                for (int k = 0; k < group.size(); k++) {
                    int member = k;
                    Thread t = ThreadTime.newThread("log-bench-replica-" + member, () -> apply(member));
                    appliers.add(t);
                    t.start();
                }
                awaitCreated();
                AtomicReference<LogBenchmarkResult> result = new AtomicReference<>();
                Thread leader = ThreadTime.newThread("log-bench-leader", () -> {
                    try {
                        result.set(lead());
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                leader.start();
                long bound = CALL_TIMEOUT.toNanos() * (config.appends() + 2) + START_BOUND.toNanos();
                if (!ThreadTime.join(leader, bound)) {
                    throw new RemoteTimeoutException("the leader did not finish " + config.appends() + " appends");
                }
                rethrow("the leader");
                awaitApplied(config.appends());
                LogBenchmarkResult r = result.get();
                long least = Long.MAX_VALUE;
                for (int k = 0; k < group.size(); k++) {
                    least = Math.min(least, applied.get(k));
                }
                return new LogBenchmarkResult(r.config(), r.latency(), r.elapsedNanos(), r.posted(), r.roundTrips(),
                        r.bytesWritten(), r.bytesRead(), r.committed(), least);
            } finally {
                stop.set(true);
                for (Thread t : appliers) {
                    if (!ThreadTime.join(t, START_BOUND.toNanos())) {
                        failure.compareAndSet(null, new RemoteTimeoutException(t.getName() + " did not stop within "
                                + START_BOUND));
                    }
                }
                close();
                rethrow("a member's applier");
            }
        }

        /** A member's applier: creates its log, grants the leader write access, applies until told to stop. */
        private void apply(int member) {
            int node = group.member(member);
            try (ComputeThread t = nodes[node].newComputeThread(Plane.REPLICATION)) {
                long[] count = new long[1];
                LogReplica replica = LogReplica.create(nodes[node], t, group, NAME, config.slots(), config.entryBytes(),
                        (index, entry) -> count[0]++);
                replica.grantWriteTo(LEADER);
                created.set(member, 1);
                while (!stop.get()) {
                    if (replica.applyCommitted() > 0) {
                        applied.set(member, count[0]);
                    } else {
                        ThreadTime.parkNanos(this, POLL_NANOS);
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }

        /** The leader: opens the log, appends, flushes the commit count; counts the appends' RDMA cost. */
        private LogBenchmarkResult lead() {
            try (ComputeThread t = nodes[LEADER].newComputeThread(Plane.REPLICATION);
                 LogLeader leader = LogLeader.open(t, group, NAME, TERM, START_BOUND)) {
                MemorySegment entry = MemorySegment.ofArray(new byte[config.entryBytes()]);
                for (int j = 0; j < config.entryBytes(); j++) {
                    entry.set(ValueLayout.JAVA_BYTE, j, (byte) (j * 31 + 7));
                }
                Histogram histogram = LatencyHistograms.create();
                long[] before = posted(t);
                long trips = t.roundTrips();
                long written = t.bytesWritten();
                long read = t.bytesRead();
                long start = ThreadTime.nanoTime();
                for (long i = 0; i < config.appends(); i++) {
                    if (config.entryBytes() >= 8) {
                        entry.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, i);
                    }
                    long begin = ThreadTime.nanoTime();
                    leader.append(entry, CALL_TIMEOUT);
                    LatencyHistograms.record(histogram, ThreadTime.nanoTime() - begin);
                }
                long elapsed = ThreadTime.nanoTime() - start;
                long[] after = posted(t);
                for (int op = 0; op < after.length; op++) {
                    after[op] -= before[op];
                }
                trips = t.roundTrips() - trips;
                written = t.bytesWritten() - written;
                read = t.bytesRead() - read;
                long committed = leader.flushCommit(CALL_TIMEOUT);
                return new LogBenchmarkResult(config, LatencySummary.of(histogram), elapsed, after, trips, written, read,
                        committed, 0);
            }
        }

        private void awaitCreated() {
            long deadline = ThreadTime.nanoTime() + START_BOUND.toNanos();
            for (int k = 0; k < group.size(); k++) {
                while (created.get(k) == 0) {
                    rethrow("a member's applier");
                    if (ThreadTime.nanoTime() - deadline > 0) {
                        throw new RemoteTimeoutException("member " + group.member(k) + " did not create its log within "
                                + START_BOUND);
                    }
                    ThreadTime.parkNanos(this, POLL_NANOS);
                }
            }
        }

        private void awaitApplied(long count) {
            long deadline = ThreadTime.nanoTime() + START_BOUND.toNanos();
            for (int k = 0; k < group.size(); k++) {
                while (applied.get(k) < count) {
                    rethrow("a member's applier");
                    if (ThreadTime.nanoTime() - deadline > 0) {
                        throw new RemoteTimeoutException("member " + group.member(k) + " applied " + applied.get(k)
                                + " of " + count + " entries within " + START_BOUND);
                    }
                    ThreadTime.parkNanos(this, POLL_NANOS);
                }
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
