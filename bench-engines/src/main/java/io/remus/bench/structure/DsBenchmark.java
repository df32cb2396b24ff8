package io.remus.bench.structure;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.bench.engines.BenchWorkers;
import io.remus.bench.engines.InProcessNodes;
import io.remus.bench.reclaim.ReclaimBenchmarkConfig;
import io.remus.bench.stats.LatencySink;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.time.ThreadTime;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The set and map benchmark (see {@link DsBenchmarkConfig} for the workloads): starts {@code nodes} nodes
 * on a fabric, creates the structure on node 0, and runs {@code threadsPerNode} workers per worker node.
 * Each worker has its own compute thread, an {@link EpochReclaimer} with
 * {@link ReclaimBenchmarkConfig#benchEpochOptions()} (200 ms leases; across processes with
 * {@link EpochOptions#defaults()}' clock skew) and, for the lazy list, a lock
 * context whose acquire timeout outlasts the run. The workers first prefill their share of the keys
 * (worker {@code g} of {@code W} inserts the {@code i}-th of the evenly spaced keys when
 * {@code i mod W == g}), then are released together and run their operations; each operation's latency
 * goes to the caller's sink of its type, and the compute thread's counters are read around it so that
 * the result holds each type's RDMA operations, bytes and round trips. Each worker closes its handle when it is
 * done, and node 0 then destroys the structure, which frees its memory.
 *
 * <p>YCSB D's inserts and reads go through {@code LatestKeys}, YCSB's generator for the whole cluster
 * (across threads and processes), in a block on node 0 that node 0 creates beside the map and that names
 * the map: an insert takes the next number {@code s} of one insert counter (a fetch-and-add) and puts key
 * {@code keyUb + 1 + s}, then acknowledges {@code s}; a read of zipfian rank {@code r} (over the range's
 * size) names the {@code r}-th latest key below the acknowledged limit, the length of the longest prefix of
 * numbers all acknowledged, as its worker last saw it (from its own acknowledgments, and a READ every
 * 64 reads), and a loaded key for {@code r} beyond it. A read therefore never
 * names a key whose insert is still in flight: a number acknowledged out of order stays invisible until the
 * numbers below it are acknowledged too, so in YCSB D every lookup finds its key. Inserted keys are unique
 * and dense: {@code keyUb + 1 .. keyUb + inserts}. The generator's round trips are counted in the
 * operation's counts (the claim's fetch-and-add and the acknowledgment's in an insert's, the refresh READ in
 * a lookup's) and reported apart as {@link Cost#KEY_GENERATOR_ROUND_TRIPS}; an operation's latency is the
 * structure's call alone, without them.
 *
 * <p>Its waits: the prefill and the start within {@link #PREFILL_BOUND}; an operation-count run at most
 * {@link #RUN_BOUND}; the workers stop within {@link #STOP_BOUND} of being told to; remote operations time
 * out after 10 s; a YCSB D acknowledgment that finds the generator's window full (an insert
 * 1024 numbers below still in flight) waits at most the run's duration (or
 * {@link #RUN_BOUND}). The caller owns the fabric.
 *
 * <p>Every clock reading, wait, thread start and join goes through {@link ThreadTime}: on host threads these
 * are the JDK's, and a run started on the simulator's virtual-time scheduler
 * ({@link io.remus.core.sim.VirtualTimeScheduler}) runs its workers there, its elapsed time, latencies and
 * bounds then being virtual time.
 */
public final class DsBenchmark {
    /** How long the workers may take to open their handles and prefill before the run starts. */
    public static final Duration PREFILL_BOUND = Duration.ofMinutes(10);
    /** How long the workers may take to stop once told to. */
    public static final Duration STOP_BOUND = Duration.ofSeconds(30);
    /** The longest an operation-count run may take. */
    public static final Duration RUN_BOUND = Duration.ofMinutes(10);
    /** The longest park of a thread at the start gate or waiting for the workers between two checks. */
    private static final long CHECK_NANOS = 1_000_000;

    private DsBenchmark() {
    }

    /**
     * Runs the benchmark with every node in this JVM.
     *
     * @param fabric a fresh fabric with no nodes open
     * @param config what to run
     * @param sinks  where each worker's latencies go
     * @return the measurements
     * @throws RemusException when a worker failed (a full hash map among them) or did not finish in time
     * @throws InterruptedException when interrupted while the workers run
     */
    public static DsBenchmarkResult run(Fabric fabric, DsBenchmarkConfig config, DsLatencySinks sinks)
            throws InterruptedException {
        return run(fabric, config, sinks, (t, ptr, latest) -> {
        });
    }

    /** What a caller may look at once the workers are done, before the nodes close (tests). */
    @FunctionalInterface
    interface AfterRun {
        /**
         * @param t      a fresh compute thread on node 0, the calling thread its owner
         * @param ptr    the structure
         * @param latest YCSB D's {@code LatestKeys} block, or 0 in other runs
         */
        void inspect(ComputeThread t, long ptr, long latest);
    }

    /** {@link #run(Fabric, DsBenchmarkConfig, DsLatencySinks)}, then {@code after} on node 0. */
    static DsBenchmarkResult run(Fabric fabric, DsBenchmarkConfig config, DsLatencySinks sinks, AfterRun after)
            throws InterruptedException {
        return run(fabric, config, sinks, after, (t, ptr, latest) -> { });
    }

    /**
     * {@link #run(Fabric, DsBenchmarkConfig, DsLatencySinks, AfterRun)}, then {@code destroyed} on node 0 once the
     * structure is destroyed, while the nodes are open (tests).
     */
    static DsBenchmarkResult run(Fabric fabric, DsBenchmarkConfig config, DsLatencySinks sinks, AfterRun after,
                                 AfterRun destroyed) throws InterruptedException {
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(sinks, "sinks");
        int n = config.nodes();
        ClusterConfig base = InProcessNodes.config(n, config.segmentBytes(), config.threadsPerNode() + 1).build();
        try (InProcessNodes cluster = InProcessNodes.start(fabric, base)) {
            RemusNode[] nodes = cluster.nodes();
            long ptr;
            long latest = 0;
            try (ComputeThread creator = nodes[0].newComputeThread(); NeverReclaimer r = new NeverReclaimer(creator)) {
                ptr = Target.create(config, creator, r, LockOptions.defaults());
                if (readsLatest(config)) {
                    latest = LatestKeys.create(creator, ptr);
                }
            }
            int[] local = new int[config.workerNodes()];
            for (int i = 0; i < local.length; i++) {
                local[i] = config.firstWorkerNode() + i;
            }
            DsBenchmarkResult result = new Run(nodes, local, ptr, latest, config, sinks,
                    ReclaimBenchmarkConfig.benchEpochOptions()).measure(() -> {
            });
            try (ComputeThread inspector = nodes[0].newComputeThread()) {
                try {
                    after.inspect(inspector, ptr, latest);
                } finally {
                    Target.destroy(config, inspector, ptr);
                }
                destroyed.inspect(inspector, ptr, latest);
            }
            return result;
        }
    }

    /** {@return whether the run is YCSB D's, whose keys come from {@code LatestKeys}} */
    static boolean readsLatest(DsBenchmarkConfig config) {
        return config.ycsb() != null && config.ycsb().readsLatest();
    }

    /**
     * One run's workers in this process: every worker node of the run in one JVM, or one node of a
     * cluster of processes ({@link ClusterDsBenchmark}).
     */
    static final class Run {
        private final RemusNode[] nodes;
        private final int[] local;
        private final long ptr;
        private final long latest;
        private final DsBenchmarkConfig config;
        private final DsLatencySinks sinks;
        private final EpochOptions epoch;
        private final int workers;
        private final double zeta;
        private final AtomicInteger ready = new AtomicInteger();
        private final AtomicBoolean go = new AtomicBoolean();
        private final AtomicInteger done = new AtomicInteger();
        private volatile Thread measurer;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final long[][] outcomes;
        private final long[][] costs;
        private final long[] prefilled;
        private final long[] finishedAt;

        /**
         * @param nodes  the run's nodes by id; those of {@code local} are open
         * @param local  the worker nodes this process runs, in increasing order (empty: none)
         * @param ptr    the structure
         * @param latest YCSB D's {@code LatestKeys} block, or 0 in other runs
         * @param config what to run
         * @param sinks  where latencies go
         * @param epoch  the workers' epoch reclaimer options (a clock skew across processes)
         */
        Run(RemusNode[] nodes, int[] local, long ptr, long latest, DsBenchmarkConfig config, DsLatencySinks sinks,
            EpochOptions epoch) {
            this.epoch = epoch;
            this.latest = latest;
            this.nodes = nodes;
            this.local = local.clone();
            this.ptr = ptr;
            this.config = config;
            this.sinks = sinks;
            this.workers = local.length * config.threadsPerNode();
            double theta = config.effectiveTheta();
            this.zeta = theta > 0 ? KeyChooser.zeta(config.keys(), theta) : 0;
            this.outcomes = new long[workers][2 * OpType.values().length];
            this.costs = new long[workers][OpType.values().length * Cost.count()];
            this.prefilled = new long[workers];
            this.finishedAt = new long[workers];
        }

        /**
         * Runs this process's workers.
         *
         * @param allReady called on this thread once this process's workers have prefilled, before they are
         *                 released: one process per node waits there for the other nodes
         * @return the measurements of this process's workers
         * @throws RemusException naming what failed or did not finish in time
         */
        DsBenchmarkResult measure(Runnable allReady) throws InterruptedException {
            measurer = Thread.currentThread();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int worker = w;
                int node = local[w / config.threadsPerNode()];
                int global = (node - config.firstWorkerNode()) * config.threadsPerNode() + w % config.threadsPerNode();
                threads.add(start(() -> work(worker, global, node), "ds-bench-" + global + "@node" + node));
            }
            long begin;
            try {
                BenchWorkers.awaitReady(ready, workers, PREFILL_BOUND, failure, CHECK_NANOS);
                allReady.run();
            } catch (RuntimeException e) {
                stop.set(true);
                wakeAll(threads);
                Throwable failed = failure.get();
                if (failed == null) {
                    throw e;
                }
                throw new RemusException("a data structure benchmark worker failed before the run (prefill or start): "
                        + failed, failed);
            }
            begin = ThreadTime.nanoTime();
            go.set(true);
            wakeAll(threads);
            if (config.duration() != null) {
                long end = begin + config.duration().toNanos();
                for (long left = end - begin; failure.get() == null && left > 0; left = end - ThreadTime.nanoTime()) {
                    ThreadTime.parkNanos(stop, Math.min(left, 10 * CHECK_NANOS));
                }
            } else {
                long by = begin + RUN_BOUND.toNanos();
                while (failure.get() == null && done.get() < workers) {
                    ThreadTime.parkNanos(done, 10 * CHECK_NANOS);
                    if (ThreadTime.nanoTime() - by > 0) {
                        stop.set(true);
                        BenchWorkers.joinAll(threads, STOP_BOUND, failure, "a data structure benchmark");
                        throw new RemoteTimeoutException("the workers did not finish " + config.opsPerThread()
                                + " operations each within " + RUN_BOUND);
                    }
                }
            }
            stop.set(true);
            BenchWorkers.joinAll(threads, STOP_BOUND, failure, "a data structure benchmark");
            long last = begin;
            long[] o = new long[2 * OpType.values().length];
            long[] c = new long[OpType.values().length * Cost.count()];
            long fill = 0;
            for (int w = 0; w < workers; w++) {
                last = Math.max(last, finishedAt[w]);
                fill += prefilled[w];
                for (int k = 0; k < o.length; k++) {
                    o[k] += outcomes[w][k];
                }
                for (int k = 0; k < c.length; k++) {
                    c[k] += costs[w][k];
                }
            }
            return new DsBenchmarkResult(config, workers == 0 ? 0 : last - begin, fill, o, c);
        }

        private Thread start(Runnable body, String name) {
            Thread t = ThreadTime.newThread(name, () -> {
                try {
                    body.run();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    stop.set(true);
                    ThreadTime.unpark(measurer);
                }
            });
            t.setDaemon(true);
            t.start();
            return t;
        }

        private static void wakeAll(List<Thread> threads) {
            for (Thread t : threads) {
                ThreadTime.unpark(t);
            }
        }

        /**
         * Waits, parked between checks, until the run starts or stops.
         *
         * @return true when it started, false when it stopped first
         * @throws RemusException when it did neither within {@link #PREFILL_BOUND}
         */
        private boolean awaitGo() {
            long deadline = ThreadTime.nanoTime() + PREFILL_BOUND.toNanos();
            while (!go.get()) {
                if (stop.get()) {
                    return false;
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new RemusException("the other workers did not arrive within " + PREFILL_BOUND);
                }
                ThreadTime.parkNanos(go, CHECK_NANOS);
            }
            return true;
        }

        private void work(int worker, int global, int node) {
            Duration runTime = config.duration() != null ? config.duration() : RUN_BOUND;
            LockOptions locks = LockOptions.defaults().withAcquireTimeout(runTime.plus(STOP_BOUND));
            try (ComputeThread ct = nodes[node].newComputeThread();
                 EpochReclaimer r = new EpochReclaimer(ct, ct.allocator(), epoch);
                 Target target = Target.attach(config, ct, r, locks, ptr)) {
                int all = config.workers();
                long count = config.prefillKeys();
                long fill = 0;
                for (long i = global; i < count; i += all) {
                    long key = config.keyLb() + (long) ((double) i * config.keys() / count);
                    if (target.run(OpType.INSERT, key)) {
                        fill++;
                    }
                }
                prefilled[worker] = fill;
                LatencySink[] sink = new LatencySink[OpType.values().length];
                for (OpType op : OpType.values()) {
                    sink[op.ordinal()] = sinks.sink(global, op);
                }
                KeyChooser keys = new KeyChooser(new SplittableRandom(config.seed() * 1_000_003L + global),
                        config.keyLb(), config.keys(), config.effectiveTheta(), zeta);
                long[] out = outcomes[worker];
                long[] cost = costs[worker];
                int costs = Cost.count();
                Ycsb y = config.ycsb();
                long target0 = config.duration() == null ? config.opsPerThread() : Long.MAX_VALUE;
                LatestKeys.Worker latestKeys = latest != 0 ? new LatestKeys.Worker(ct, latest, config, runTime) : null;
                ready.incrementAndGet();
                ThreadTime.unpark(measurer);
                if (!awaitGo()) {
                    return;
                }
                for (long n = 0; n < target0 && !stop.get(); n++) {
                    int p = keys.percent();
                    OpType op;
                    if (y == null) {
                        op = p < config.insertPercent() ? OpType.INSERT
                                : p < config.insertPercent() + config.removePercent() ? OpType.REMOVE : OpType.LOOKUP;
                    } else if (p < y.readPercent()) {
                        op = OpType.LOOKUP;
                    } else if (p < y.readPercent() + y.updatePercent()) {
                        op = OpType.UPDATE;
                    } else if (p < y.readPercent() + y.updatePercent() + y.insertPercent()) {
                        op = OpType.INSERT;
                    } else {
                        op = OpType.RMW;
                    }
                    int at = op.ordinal() * costs;
                    Cost.add(ct, cost, at, -1);
                    long allocations = target.allocatorRoundTrips();
                    long reclamation = r.roundTrips();
                    long key;
                    long sequence = -1;
                    if (latestKeys == null || op == OpType.UPDATE || op == OpType.RMW) {
                        key = keys.next();
                    } else {
                        long generated = ct.roundTrips();
                        if (op == OpType.INSERT) {
                            sequence = latestKeys.claim();
                            key = latestKeys.key(sequence);
                        } else {
                            key = latestKeys.read(keys.rank());
                        }
                        cost[at + Cost.KEY_GENERATOR_ROUND_TRIPS.ordinal()] += ct.roundTrips() - generated;
                    }
                    long s = ThreadTime.nanoTime();
                    boolean ok = target.run(op, key);
                    long took = ThreadTime.nanoTime() - s;
                    if (sequence >= 0) {
                        long generated = ct.roundTrips();
                        latestKeys.acknowledge(sequence);
                        cost[at + Cost.KEY_GENERATOR_ROUND_TRIPS.ordinal()] += ct.roundTrips() - generated;
                    }
                    Cost.add(ct, cost, at, 1);
                    cost[at + Cost.ALLOCATOR_ROUND_TRIPS.ordinal()] += target.allocatorRoundTrips() - allocations;
                    cost[at + Cost.RECLAIMER_ROUND_TRIPS.ordinal()] += r.roundTrips() - reclamation;
                    out[2 * op.ordinal() + (ok ? 0 : 1)]++;
                    sink[op.ordinal()].record(took);
                }
                finishedAt[worker] = ThreadTime.nanoTime();
                done.incrementAndGet();
                ThreadTime.unpark(measurer);
            }
        }
    }
}
