package io.remus.bench.reclaim;

import io.remus.bench.churn.ChurnWorkload;
import io.remus.bench.engines.BenchWorkers;
import io.remus.bench.engines.InProcessNodes;
import io.remus.bench.engines.RunBarrier;
import io.remus.bench.engines.SimTime;
import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.ds.reclaim.BarrierReclaimer;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.core.time.ThreadTime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.IntStream;
import java.util.function.Supplier;

/**
 * The reclamation benchmark: starts {@code nodes} nodes on a fabric, creates one shared
 * {@link ChurnWorkload} array on node 0, and runs {@code threadsPerNode} churn workers per node, each
 * with its own reclaimer of the configured kind, for a duration or an operation count. Meanwhile the
 * calling thread samples the sum of the workers' {@link Reclaimer#unreclaimedBytes()} every
 * {@code sampleEvery}. With {@code stall}, one more thread on node 0 enters a guard, reads a node,
 * and stays inside until the workers are done: epochs without a lease, and the barrier, cannot free
 * anything while it sits there; epochs with a lease stop waiting for it once the lease runs out.
 *
 * <p>{@link ReclaimerKind#BARRIER}: every worker calls {@link Reclaimer#reclaim()} (the cluster-wide
 * barrier) after every {@code barrierEvery} operations, and the workers decide together after each
 * round whether to stop, so that all meet the barrier equally often. With a stalled thread, which is a
 * participant of the barrier, the workers wait at their first barrier until the run's time is up and
 * the stalled thread leaves its guard and joins them: that is Remus' behaviour with a thread that does
 * not reach the barrier. {@link ReclaimerKind#EPOCH} reclaims when a guard closes, and
 * {@link ReclaimerKind#NEVER} never does.
 *
 * <p>Its waits: a duration run lasts the caller's duration, an operation-count run at most
 * {@link #RUN_BOUND}; the workers must be ready within {@link #START_BOUND} and stop within
 * {@link #STOP_BOUND} of being told to; the barrier waits up to the run's duration plus
 * {@link #STOP_BOUND}; remote operations time out after 10 s. The caller owns the fabric.
 *
 * <p>Every clock reading, wait, thread start and join goes through {@link ThreadTime}: on host threads these
 * are the JDK's, and a run started on the simulator's virtual-time scheduler
 * ({@link io.remus.core.sim.VirtualTimeScheduler}) runs its workers and its stalled thread there, its elapsed
 * time, samples, leases, bounds and the stall then being virtual time.
 */
public final class ReclaimBenchmark {
    /** How long the workers may take to open their compute threads and reclaimers before the run starts. */
    public static final Duration START_BOUND = Duration.ofSeconds(30);
    /** How long the workers may take to stop once told to, or to leave a barrier round. */
    public static final Duration STOP_BOUND = Duration.ofSeconds(30);
    /** The longest an operation-count run may take. */
    public static final Duration RUN_BOUND = Duration.ofMinutes(10);
    private static final int PUBLISH_EVERY = 64;
    private static final long CHECK_NANOS = 1_000_000;

    private ReclaimBenchmark() {
    }

    /**
     * Runs the benchmark.
     *
     * @param fabric a fresh fabric with no nodes open
     * @param config what to run
     * @return the measurements
     * @throws RemusException when a worker failed (an allocation that ran out of memory among them:
     *                        never-free keeps every retired block) or did not stop in time
     */
    public static ReclaimBenchmarkResult run(Fabric fabric, ReclaimBenchmarkConfig config) throws InterruptedException {
        int n = config.nodes();
        ClusterConfig base = InProcessNodes.config(n, config.segmentBytes(), config.threadsPerNode() + 2).build();
        try (InProcessNodes cluster = InProcessNodes.start(fabric, base)) {
            RemusNode[] nodes = cluster.nodes();
            long array;
            try (ComputeThread creator = nodes[0].newComputeThread()) {
                array = ChurnWorkload.createArray(creator, creator.allocator(), config.slots(), 0);
            }
            return new Run(nodes, IntStream.range(0, n).toArray(), array, 0, config).measure(() -> {
            });
        }
    }

    /**
     * One run's shared state: the workers of the nodes this process runs, every node of the run in one
     * JVM or one node of a cluster of processes ({@link ClusterReclaimBenchmark}).
     */
    static final class Run {
        private final RemusNode[] nodes;
        private final int[] local;
        private final long array;
        private final long lastRoundWord;
        private final ReclaimBenchmarkConfig config;
        private final int workers;
        private final boolean stalls;
        private final boolean barrier;
        private final int participants;
        private final Duration barrierTimeout;
        private final AtomicInteger ready = new AtomicInteger();
        private final int here;
        private final RunBarrier start;
        private final RunBarrier round;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicInteger reachedTarget = new AtomicInteger();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final AtomicInteger workersDone = new AtomicInteger();
        private volatile boolean stallReleased;
        private volatile Thread stalled;
        private volatile Thread measurer;
        private final AtomicReferenceArray<Reclaimer> reclaimers;
        private final AtomicLongArray progress;
        private final long[][] posted;
        private final long[][] counts;
        private final long[] finishedAt;
        private final String[] firstViolations;
        private volatile boolean decidedStop;

        /**
         * @param nodes         the run's nodes by id; those of {@code local} are open, the others may be null
         * @param local         the ids of the nodes whose workers this process runs, in increasing order
         * @param array         the shared churn array
         * @param lastRoundWord with the barrier reclaimer and one process per node, a word on node 0, 0 at
         *                      the start, where node 0's first worker announces the last barrier round once
         *                      its run's time is up (so that every process leaves after the same round);
         *                      0 when every node is in this JVM
         * @param config        what to run
         */
        Run(RemusNode[] nodes, int[] local, long array, long lastRoundWord, ReclaimBenchmarkConfig config) {
            this.nodes = nodes;
            this.local = local.clone();
            this.array = array;
            this.lastRoundWord = lastRoundWord;
            this.config = config;
            this.workers = local.length * config.threadsPerNode();
            this.stalls = config.stall() && local[0] == 0;
            this.barrier = config.reclaimer() == ReclaimerKind.BARRIER;
            this.participants = config.workers() + (config.stall() ? 1 : 0);
            this.here = workers + (stalls ? 1 : 0);
            Duration runTime = config.duration() != null ? config.duration() : RUN_BOUND;
            this.barrierTimeout = runTime.plus(STOP_BOUND);
            this.start = new RunBarrier(here + 1);
            this.round = new RunBarrier(barrier && lastRoundWord == 0 ? here : 1, () -> decidedStop = stop.get()
                    || (config.duration() == null && reachedTarget.get() == workers));
            this.reclaimers = new AtomicReferenceArray<>(here);
            this.progress = new AtomicLongArray(workers);
            this.posted = new long[workers][Opcode.values().length];
            this.counts = new long[workers][8];
            this.finishedAt = new long[workers];
            this.firstViolations = new String[workers];
        }

        /**
         * Runs the workers and samples their unreclaimed bytes until they are done.
         *
         * @param allReady called on this thread once this process's workers are ready, before they are
         *                 released: one process per node waits there for the other nodes
         * @return the measurements of this process's workers
         * @throws RemusException naming what failed or did not finish in time
         */
        ReclaimBenchmarkResult measure(Runnable allReady) throws InterruptedException {
            measurer = Thread.currentThread();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int worker = w;
                int node = local[w / config.threadsPerNode()];
                threads.add(start(() -> work(worker, node), "reclaim-bench-" + w + "@node" + node));
            }
            if (stalls) {
                threads.add(start(this::stall, "reclaim-bench-stalled@node0"));
            }
            try {
                BenchWorkers.awaitReady(ready, here, START_BOUND, failure, CHECK_NANOS);
            } catch (RuntimeException e) {
                throw notStarted(e);
            }
            try {
                allReady.run();
            } catch (RuntimeException e) {
                abandonStart();
                throw e;
            }
            long begin = ThreadTime.nanoTime();
            try {
                start.await(START_BOUND);
            } catch (RuntimeException e) {
                throw notStarted(e);
            }
            List<ReclaimBenchmarkResult.Sample> samples = new ArrayList<>();
            long peak = sample(samples, begin);
            long limit = config.duration() != null ? config.duration().toNanos() : RUN_BOUND.toNanos();
            long every = config.sampleEvery().toNanos();
            long next = begin + every;
            while (true) {
                for (long left = next - ThreadTime.nanoTime(); left > 0 && workersDone.get() < workers
                        && failure.get() == null; left = next - ThreadTime.nanoTime()) {
                    ThreadTime.parkNanos(workersDone, left);
                }
                if (workersDone.get() == workers) {
                    break;
                }
                peak = Math.max(peak, sample(samples, begin));
                next += every;
                if (ThreadTime.nanoTime() - begin >= limit || failure.get() != null) {
                    break;
                }
            }
            stop.set(true);
            releaseStall();
            BenchWorkers.joinAll(threads, STOP_BOUND, failure, "a reclamation benchmark");
            if (config.duration() == null && reachedTarget.get() < workers) {
                throw new RemoteTimeoutException("the workers did not finish " + config.opsPerThread()
                        + " operations each within " + RUN_BOUND);
            }
            return result(begin, peak, samples);
        }

        private RemusException notStarted(Exception e) {
            abandonStart();
            return new RemusException("reclamation benchmark workers were not all ready within " + START_BOUND,
                    failure.get() != null ? failure.get() : e);
        }

        /** Stops the workers and the stalled thread that wait to be released, and releases them. */
        private void abandonStart() {
            stop.set(true);
            releaseStall();
            start.breakAll();
        }

        /** Lets the stalled thread leave its guard. */
        private void releaseStall() {
            stallReleased = true;
            ThreadTime.unpark(stalled);
        }

        private Thread start(Runnable body, String name) {
            Thread t = ThreadTime.newThread(name, () -> {
                try {
                    body.run();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    stop.set(true);
                    start.breakAll();
                    round.breakAll();
                    ThreadTime.unpark(measurer);
                }
            });
            t.setDaemon(true);
            t.start();
            return t;
        }

        private void work(int worker, int node) {
            try (ComputeThread ct = nodes[node].newComputeThread()) {
                Reclaimer r = reclaimer(ct);
                reclaimers.set(worker, r);
                int global = node * config.threadsPerNode() + worker % config.threadsPerNode();
                ChurnWorkload w = new ChurnWorkload(ct, ct.allocator(), r, array, config.slots(), config.readPercent(),
                        0, config.seed() * 31 + global);
                long[] before = posted(ct);
                ready.incrementAndGet();
                ThreadTime.unpark(measurer);
                start.await(START_BOUND);
                long target = config.duration() == null ? config.opsPerThread() : Long.MAX_VALUE;
                long done = 0;
                long rounds = 0;
                boolean counted = false;
                while (true) {
                    long roundEnd = barrier ? done + config.barrierEvery() : Long.MAX_VALUE;
                    while (done < target && done < roundEnd && !stop.get()) {
                        w.op();
                        done++;
                        if (done % PUBLISH_EVERY == 0) {
                            progress.lazySet(worker, done);
                        }
                    }
                    if (done >= target && !counted) {
                        counted = true;
                        reachedTarget.incrementAndGet();
                    }
                    if (!barrier) {
                        break;
                    }
                    r.reclaim();
                    if (lastRound(ct, ++rounds, global == 0, done >= target)) {
                        break;
                    }
                }
                finishedAt[worker] = ThreadTime.nanoTime();
                progress.set(worker, done);
                long[] after = posted(ct);
                for (int k = 0; k < after.length; k++) {
                    posted[worker][k] = after[k] - before[k];
                }
                long[] c = counts[worker];
                c[0] = done;
                c[1] = w.reads();
                c[2] = w.replaces();
                c[3] = w.restarts();
                c[4] = w.violations();
                c[5] = r.retiredBytes();
                c[6] = r.unreclaimedBytes();
                c[7] = r instanceof EpochReclaimer e ? e.limitTimeouts() : 0;
                firstViolations[worker] = w.firstViolation();
                workersDone.incrementAndGet();
                ThreadTime.unpark(measurer);
                r.close();
            }
        }

        private void stall() {
            try (ComputeThread ct = nodes[0].newComputeThread()) {
                Reclaimer r = reclaimer(ct);
                reclaimers.set(workers, r);
                Guard g = r.enter();
                ct.read(array);
                stalled = Thread.currentThread();
                ready.incrementAndGet();
                ThreadTime.unpark(measurer);
                start.await(START_BOUND);
                long bound = (config.duration() != null ? config.duration() : RUN_BOUND).plus(STOP_BOUND).toNanos();
                long deadline = ThreadTime.nanoTime() + bound;
                while (!stallReleased) {
                    long left = deadline - ThreadTime.nanoTime();
                    if (left <= 0) {
                        throw new RemoteTimeoutException("the stalled thread was not released within " + Duration.ofNanos(bound));
                    }
                    ThreadTime.parkNanos(this, left);
                }
                g.close();
                long rounds = 0;
                while (barrier) {
                    r.reclaim();
                    if (lastRound(ct, ++rounds, false, false)) {
                        break;
                    }
                }
                r.close();
            }
        }

        /**
         * Whether a barrier round was the last, the same answer for every participant of the round. In
         * one JVM they decide together (a local barrier whose action reads the stop flag and the
         * operation targets). With one process per node: an operation-count run ends in the round in
         * which every worker reaches its count (the same for all, as all have the same count and round
         * length); a timed run ends after the round that node 0's first worker announced in the word
         * at {@code lastRoundWord}: once its time is up, after its round {@code j}, it announces
         * {@code j + 1}. No participant can have completed round {@code j + 1} then (that round needs
         * the announcer's arrival), and every participant reads the word after completing it.
         */
        private boolean lastRound(ComputeThread ct, long rounds, boolean announcer, boolean reachedCount) {
            if (lastRoundWord == 0) {
                round.await(barrierTimeout);
                return decidedStop;
            }
            if (config.duration() == null) {
                return reachedCount;
            }
            if (announcer && stop.get()) {
                ct.compareAndSwap(lastRoundWord, 0, rounds + 1);
            }
            long last = ct.read(lastRoundWord);
            return last != 0 && rounds >= last;
        }

        private Reclaimer reclaimer(ComputeThread ct) {
            return switch (config.reclaimer()) {
                case NEVER -> new NeverReclaimer(ct);
                case BARRIER -> new BarrierReclaimer(ct, ct.allocator(), new ClusterBarrier(ct, participants, barrierTimeout));
                case EPOCH -> new EpochReclaimer(ct, ct.allocator(), config.epoch());
            };
        }

        private long sample(List<ReclaimBenchmarkResult.Sample> samples, long begin) {
            long bytes = 0;
            for (int i = 0; i < reclaimers.length(); i++) {
                Reclaimer r = reclaimers.get(i);
                if (r != null) {
                    bytes += r.unreclaimedBytes();
                }
            }
            long ops = 0;
            for (int i = 0; i < workers; i++) {
                ops += progress.get(i);
            }
            samples.add(new ReclaimBenchmarkResult.Sample(TimeUnit.NANOSECONDS.toMillis(ThreadTime.nanoTime() - begin), bytes, ops));
            return bytes;
        }

        private ReclaimBenchmarkResult result(long begin, long peak, List<ReclaimBenchmarkResult.Sample> samples) {
            long[] sum = new long[8];
            long[] ops = new long[Opcode.values().length];
            long end = begin;
            String first = null;
            for (int w = 0; w < workers; w++) {
                for (int k = 0; k < sum.length; k++) {
                    sum[k] += counts[w][k];
                }
                for (int k = 0; k < ops.length; k++) {
                    ops[k] += posted[w][k];
                }
                end = Math.max(end, finishedAt[w]);
                if (first == null) {
                    first = firstViolations[w];
                }
            }
            samples.add(new ReclaimBenchmarkResult.Sample(TimeUnit.NANOSECONDS.toMillis(end - begin), sum[6], sum[0]));
            return new ReclaimBenchmarkResult(config, sum[0], end - begin, sum[1], sum[2], sum[3], sum[4], first,
                    sum[5], Math.max(peak, sum[6]), sum[6], ops, sum[7], samples);
        }

        private static long[] posted(ComputeThread ct) {
            Opcode[] all = Opcode.values();
            long[] out = new long[all.length];
            for (Opcode op : all) {
                out[op.ordinal()] = ct.postedOperations(op);
            }
            return out;
        }
    }

    /**
     * Runs the warm-ups of {@code configs} ({@link ReclaimBenchmarkConfig#warmUps}) unreported, then each
     * configuration, every run on a fresh fabric.
     *
     * @param fabrics makes a fresh fabric for each run; closed after it
     * @param configs what to measure, in order
     * @param warmup  how long each warm-up runs; null for none
     * @return one result per configuration, in order
     * @throws RemusException when a worker failed or did not stop in time
     */
    public static List<ReclaimBenchmarkResult> run(Supplier<Fabric> fabrics, List<ReclaimBenchmarkConfig> configs,
                                                   Duration warmup) throws InterruptedException {
        return run(fabrics, configs, warmup, SimTime.HOST);
    }

    /**
     * {@link #run(Supplier, List, Duration)} on the clock {@code time}. In virtual time each configuration runs in
     * a virtual-time run of its own, fabric and nodes included ({@link SimTime#call}), so that its counts and
     * samples follow from the model, the code and the seed alone, and its elapsed time, sample times, leases and
     * stall are virtual time; there are no warm-ups, whose only use is the host's JIT.
     *
     * @param fabrics makes a fresh fabric for each run; closed after it; in virtual time called on the run's first
     *                scheduled thread
     * @param configs what to measure, in order
     * @param warmup  how long each warm-up runs; null for none; ignored in virtual time
     * @param time    the host's clock or virtual time
     * @return one result per configuration, in order
     * @throws RemusException when a worker failed or did not stop in time
     */
    public static List<ReclaimBenchmarkResult> run(Supplier<Fabric> fabrics, List<ReclaimBenchmarkConfig> configs,
                                                   Duration warmup, SimTime time) throws InterruptedException {
        if (warmup != null && !time.isVirtual()) {
            for (ReclaimBenchmarkConfig w : ReclaimBenchmarkConfig.warmUps(configs, warmup)) {
                try (Fabric f = fabrics.get()) {
                    run(f, w);
                }
            }
        }
        List<ReclaimBenchmarkResult> runs = new ArrayList<>();
        for (ReclaimBenchmarkConfig config : configs) {
            runs.add(time.call(() -> {
                try (Fabric f = fabrics.get()) {
                    return run(f, config);
                }
            }));
        }
        return runs;
    }
}
