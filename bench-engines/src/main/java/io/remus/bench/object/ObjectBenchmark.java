package io.remus.bench.object;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.bench.engines.BenchWorkers;
import io.remus.bench.engines.InProcessNodes;
import io.remus.bench.engines.RunBarrier;
import io.remus.bench.reclaim.ReclaimBenchmarkConfig;
import io.remus.bench.stats.LatencySink;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.core.time.ThreadTime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.function.ObjLongConsumer;

/**
 * The wait-free objects benchmark: starts {@code nodes} nodes on a fabric, creates one object of the
 * configured kind and implementation on node 0, and runs {@code threadsPerNode} workers per node on it
 * for the configured duration, each choosing at random per operation between an update and a read (a
 * put and a take for the queue and stack; see {@link ObjectKind}). Every worker has its own compute
 * thread, an {@link EpochReclaimer} with {@link ReclaimBenchmarkConfig#benchEpochOptions()} (200 ms
 * leases) for the objects that retire blocks, and a lock context whose acquire timeout outlasts the run.
 * Each worker closes its handle when it is done, and node 0's creator then destroys the object, which frees it.
 *
 * <p><b>The stall.</b> With {@code stall}, worker 0 (on node 0) stops for half of the run, from its first
 * operation after a quarter of the run (or until the run ends, when that is sooner), in the middle of an operation where the implementation has one: a locked implementation stops
 * while it holds the lock, between its READ and its WRITE of the state; the wait-free queue and stack
 * ({@link io.remus.ds.object.WaitFreeObject}) stop after their announcement and their READs of the state,
 * before their publishing compare-and-swap, inside a reclamation guard (whose lease then runs out). Both
 * stop in the sequential object's step ({@link StallingObject}): a Java-level wait between two RDMA
 * operations, the same on the simulator and on verbs, where a descheduled or paused thread would stop.
 * The counter, max register, register and table have no local step inside an operation (the counter's is
 * one fetch-and-add): their stalled worker stops between two operations, holding nothing. The result
 * counts the operations the others completed while it stood still; the latencies handed to the sinks are
 * the live workers' only (in a stalled run, every worker but 0).
 *
 * <p>Its waits: the workers must be ready within {@link #START_BOUND} and stop within
 * {@link #STOP_BOUND} of the run's end; remote operations time out after 10 s. The caller owns the fabric.
 *
 * <p>Every clock reading, wait, thread start and join goes through {@link ThreadTime}: on host threads these
 * are the JDK's, and a run started on the simulator's virtual-time scheduler
 * ({@link io.remus.core.sim.VirtualTimeScheduler}) runs its workers there, its elapsed time, latencies, bounds
 * and the stall's length then being virtual time.
 */
public final class ObjectBenchmark {
    /** How long the workers may take to open their compute threads and handles before the run starts. */
    public static final Duration START_BOUND = Duration.ofSeconds(30);
    /** How long the workers may take to stop once told to. */
    public static final Duration STOP_BOUND = Duration.ofSeconds(30);
    private static final int STRIDE = 16;
    private static final long CHECK_NANOS = 1_000_000;

    private ObjectBenchmark() {
    }

    /**
     * Runs the benchmark without recording latencies.
     *
     * @param fabric a fresh fabric with no nodes open
     * @param config what to run
     * @return the measurements
     * @throws RemusException when a worker failed or did not stop in time
     */
    public static ObjectBenchmarkResult run(Fabric fabric, ObjectBenchmarkConfig config) throws InterruptedException {
        return run(fabric, config, worker -> LatencySink.NONE);
    }

    /**
     * Runs the benchmark and hands every live worker's operation latency to its sink.
     *
     * @param fabric a fresh fabric with no nodes open
     * @param config what to run
     * @param sinks  the sink of each worker, by index {@code 0..workers-1} (node-major)
     * @return the measurements
     * @throws RemusException when a worker failed or did not stop in time
     */
    public static ObjectBenchmarkResult run(Fabric fabric, ObjectBenchmarkConfig config, IntFunction<LatencySink> sinks)
            throws InterruptedException {
        return run(fabric, config, sinks, (node, ptr) -> { });
    }

    /**
     * {@link #run(Fabric, ObjectBenchmarkConfig, IntFunction)} handing node 0 and the object's pointer to
     * {@code measured} once the object is destroyed, while the nodes are open (tests).
     */
    static ObjectBenchmarkResult run(Fabric fabric, ObjectBenchmarkConfig config, IntFunction<LatencySink> sinks,
                                     ObjLongConsumer<RemusNode> measured) throws InterruptedException {
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(sinks, "sinks");
        int n = config.nodes();
        ClusterConfig base = InProcessNodes.config(n, config.segmentBytes(), config.threadsPerNode() + 1)
                .bufferSizePerThread(256 << 10).build();
        try (InProcessNodes cluster = InProcessNodes.start(fabric, base)) {
            RemusNode[] nodes = cluster.nodes();
            try (ComputeThread creator = nodes[0].newComputeThread(); NeverReclaimer r = new NeverReclaimer(creator)) {
                BenchObjects.Created object = BenchObjects.create(config, creator, r,
                        new LockContext(creator, LockOptions.defaults()));
                ObjectBenchmarkResult result;
                try {
                    result = new Run(nodes, object.ptr(), config, sinks).measure();
                } finally {
                    object.destroy().run();
                }
                measured.accept(nodes[0], object.ptr());
                return result;
            }
        }
    }

    /** One run's shared state. */
    private static final class Run {
        private final RemusNode[] nodes;
        private final long ptr;
        private final ObjectBenchmarkConfig config;
        private final IntFunction<LatencySink> sinks;
        private final int workers;
        private final AtomicInteger ready = new AtomicInteger();
        private final RunBarrier start;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final AtomicLongArray progress;
        private final long[][] posted;
        private final long[] done;
        private final long[] finishedAt;
        private final Stall stall;
        private volatile Thread measurer;

        Run(RemusNode[] nodes, long ptr, ObjectBenchmarkConfig config, IntFunction<LatencySink> sinks) {
            this.nodes = nodes;
            this.ptr = ptr;
            this.config = config;
            this.sinks = sinks;
            this.workers = config.workers();
            this.start = new RunBarrier(workers + 1);
            this.progress = new AtomicLongArray(workers * STRIDE);
            this.posted = new long[workers][Opcode.values().length];
            this.done = new long[workers];
            this.finishedAt = new long[workers];
            this.stall = config.stall() ? new Stall(this::othersProgress) : null;
        }

        private long othersProgress() {
            long sum = 0;
            for (int w = 1; w < workers; w++) {
                sum += progress.get(w * STRIDE);
            }
            return sum;
        }

        ObjectBenchmarkResult measure() throws InterruptedException {
            measurer = Thread.currentThread();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int worker = w;
                int node = w / config.threadsPerNode();
                threads.add(start(() -> work(worker, node), "object-bench-" + w + "@node" + node));
            }
            long begin;
            try {
                BenchWorkers.awaitReady(ready, workers, START_BOUND, failure, CHECK_NANOS);
                begin = ThreadTime.nanoTime();
                start.await(START_BOUND);
            } catch (RuntimeException e) {
                stop.set(true);
                start.breakAll();
                throw new RemusException("object benchmark workers were not all ready within " + START_BOUND,
                        failure.get() != null ? failure.get() : e);
            }
            long end = begin + config.duration().toNanos();
            for (long left = end - begin; failure.get() == null && left > 0; left = end - ThreadTime.nanoTime()) {
                ThreadTime.parkNanos(stop, Math.min(left, 10 * CHECK_NANOS));
            }
            stop.set(true);
            if (stall != null) {
                stall.release();
            }
            BenchWorkers.joinAll(threads, STOP_BOUND, failure, "an object benchmark");
            long ops = 0;
            long last = begin;
            long[] sum = new long[Opcode.values().length];
            for (int w = 0; w < workers; w++) {
                ops += done[w];
                last = Math.max(last, finishedAt[w]);
                for (int k = 0; k < sum.length; k++) {
                    sum[k] += posted[w][k];
                }
            }
            return new ObjectBenchmarkResult(config, ops, last - begin, sum, stall == null ? 0 : stall.nanos(),
                    stall == null ? 0 : stall.othersDuring(), stall == null ? 0 : done[0]);
        }

        private Thread start(Runnable body, String name) {
            Thread t = ThreadTime.newThread(name, () -> {
                try {
                    body.run();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    stop.set(true);
                    start.breakAll();
                    if (stall != null) {
                        stall.release();
                    }
                    ThreadTime.unpark(measurer);
                }
            });
            t.setDaemon(true);
            t.start();
            return t;
        }

        private void work(int worker, int node) {
            boolean stalls = stall != null && worker == 0;
            LockOptions lockOptions = LockOptions.defaults().withAcquireTimeout(config.duration().plus(STOP_BOUND));
            try (ComputeThread ct = nodes[node].newComputeThread();
                 Reclaimer r = new EpochReclaimer(ct, ct.allocator(), ReclaimBenchmarkConfig.benchEpochOptions());
                 BenchObjects.Handle h = BenchObjects.open(config, ct, r, new LockContext(ct, lockOptions), ptr, worker,
                         stalls ? stall : null)) {
                LatencySink sink = stalls ? LatencySink.NONE : sinks.apply(worker);
                SplittableRandom rnd = new SplittableRandom(config.seed() * 31 + worker);
                long[] before = posted(ct);
                ready.incrementAndGet();
                ThreadTime.unpark(measurer);
                start.await(START_BOUND);
                long armAt = ThreadTime.nanoTime() + config.stallStart().toNanos();
                boolean armed = !stalls;
                final long step = workers;
                long n = 0;
                while (!stop.get()) {
                    if (!armed && ThreadTime.nanoTime() - armAt >= 0) {
                        armed = true;
                        stall.arm(config.stallLength().toNanos());
                        if (!h.stallsInside()) {
                            stall.parkIfArmed();
                        }
                    }
                    boolean update = rnd.nextBoolean();
                    long s = ThreadTime.nanoTime();
                    h.op(update, (n + 1) * step + worker);
                    sink.record(ThreadTime.nanoTime() - s);
                    n++;
                    progress.lazySet(worker * STRIDE, n);
                }
                finishedAt[worker] = ThreadTime.nanoTime();
                done[worker] = n;
                long[] after = posted(ct);
                for (int k = 0; k < after.length; k++) {
                    posted[worker][k] = after[k] - before[k];
                }
            }
        }

    }

    /** {@return {@code ct}'s posted operations so far, indexed by {@link Opcode#ordinal()}} */
    static long[] posted(ComputeThread ct) {
        Opcode[] all = Opcode.values();
        long[] out = new long[all.length];
        for (Opcode op : all) {
            out[op.ordinal()] = ct.postedOperations(op);
        }
        return out;
    }
}
