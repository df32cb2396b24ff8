package io.remus.bench.lock;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.table.LockTable;
import io.remus.alock.table.TableLocks;
import io.remus.bench.engines.InProcessNodes;
import io.remus.bench.stats.LatencySink;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;
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

/**
 * The lock benchmark: starts {@code nodes} nodes on a fabric, creates a {@link LockTable} of
 * {@code keys} locks spread over them, and runs {@code threadsPerNode} workers per node that
 * acquire and release random keys (local with probability {@code pLocal}) for {@code duration}, each
 * critical section making {@code criticalSectionOps} RDMA READs and WRITEs of a word the worker allocated on
 * the next node (none by default).
 * Latency is recorded per lock/unlock pair into a log2 histogram and, when the caller supplies
 * {@link LatencySink}s, passed to the worker's sink as an exact value. When the measured phase ends, it counts
 * the workers inside a lock/unlock pair of each key and keeps the largest count
 * ({@link LockBenchmarkResult#busiestLockWorkers()}): most of the workers on one lock mark a convoy. The caller owns
 * the fabric.
 *
 * <p>Its waits: the run itself lasts the caller's {@code duration}; every remote operation is bounded
 * by a 10 s operation timeout and every lock wait by {@link LockOptions#defaults()}' 10 s acquire
 * timeout; the workers must all be ready within {@link #START_BOUND} and, once told to stop, finish
 * their last lock and unlock (two bounded waits) within {@link #STOP_BOUND}, or the run fails with
 * a {@link RemusException} naming the bound.
 *
 * <p>Before it is ready, each worker allocates its queue nodes and connects its compute thread to
 * every node (a fetch-and-add of 0 to each node's segment-0 watermark, which changes nothing and
 * is atomic with the allocators' compare-and-swaps on it), so that neither the allocation nor the
 * connection set-up, which takes seconds on a slow host, falls into the measured time.
 *
 * <p>Every clock reading, wait, thread start and join goes through {@link ThreadTime}: on host threads
 * these are the JDK's, and a run started on the simulator's virtual-time scheduler
 * ({@link io.remus.core.sim.VirtualTimeScheduler}) runs its workers there, its duration, latencies and
 * bounds then being virtual time.
 */
public final class LockBenchmark {
    /** How long the workers may take to open their compute threads and locks before the run starts. */
    public static final Duration START_BOUND = Duration.ofSeconds(30);
    /** How long the workers may take to stop: more than a lock and an unlock at the acquire timeout. */
    public static final Duration STOP_BOUND = Duration.ofSeconds(30);
    /** The longest park of a thread waiting at the start gate between two checks; a wake-up ends it early. */
    private static final long GATE_CHECK_NANOS = 1_000_000;

    private LockBenchmark() {
    }

    /**
     * Runs the benchmark.
     *
     * @param fabric a fresh fabric with no nodes open
     * @param config what to run
     * @return the measurements
     * @throws RemusException when a worker failed or did not stop in time
     */
    public static LockBenchmarkResult run(Fabric fabric, LockBenchmarkConfig config) throws InterruptedException {
        return run(fabric, config, worker -> LatencySink.NONE);
    }

    /**
     * Runs the benchmark and hands every lock/unlock latency to the worker's sink.
     *
     * @param fabric a fresh fabric with no nodes open
     * @param config what to run
     * @param sinks  the sink of each worker, by worker index {@code 0..nodes*threadsPerNode-1}
     *               (worker {@code w} runs on node {@code w / threadsPerNode}); asked once per
     *               worker on the calling thread before the workers start
     * @return the measurements
     * @throws RemusException when a worker failed or did not stop in time
     */
    public static LockBenchmarkResult run(Fabric fabric, LockBenchmarkConfig config, IntFunction<LatencySink> sinks)
            throws InterruptedException {
        Objects.requireNonNull(sinks, "sinks");
        int n = config.nodes();
        long segment = Math.max(1L << 20, Long.highestOneBit((long) config.keys() * 128 / n + 1) << 2);
        ClusterConfig base = InProcessNodes.config(n, segment, config.threadsPerNode() + 1).build();
        try (InProcessNodes cluster = InProcessNodes.start(fabric, base)) {
            RemusNode[] nodes = cluster.nodes();
            LockTable table;
            try (ComputeThread creator = nodes[0].newComputeThread()) {
                table = LockTable.create(creator, config.kind(), config.keys());
            }
            return measure(nodes, table, config, sinks);
        }
    }

    private static LockBenchmarkResult measure(RemusNode[] nodes, LockTable table, LockBenchmarkConfig config,
                                               IntFunction<LatencySink> sinks) throws InterruptedException {
        Measured m = measure(nodes, 0, nodes.length - 1, table, config, sinks, () -> {
        });
        if (m.failure() != null) {
            throw m.failure() instanceof RemoteTimeoutException e ? e
                    : new RemusException("a lock benchmark worker failed: " + m.failure(), m.failure());
        }
        return m.result();
    }

    /** What {@link #measure(RemusNode[], int, int, LockTable, LockBenchmarkConfig, IntFunction, StartGate)} measured, or why it failed. */
    record Measured(LockBenchmarkResult result, Throwable failure) {
    }

    /** Runs on the calling thread once every worker of this JVM is ready, before any starts; may throw to abort. */
    @FunctionalInterface
    interface StartGate {
        /** Opens the gate, or throws when the run must not start. */
        void open() throws InterruptedException;
    }

    /**
     * Runs the workers of nodes {@code first..last}, which {@code nodes} holds at their ids, for the
     * configured duration. A failure of the start (a worker not ready within {@link #START_BOUND},
     * or the gate) is thrown; a failure after the start (a worker that failed, or did not stop
     * within {@link #STOP_BOUND}) comes back in the result, so that a cluster run can report it.
     *
     * @param sinks by worker index relative to the first worker of node {@code first}
     */
    static Measured measure(RemusNode[] nodes, int first, int last, LockTable table, LockBenchmarkConfig config,
                            IntFunction<LatencySink> sinks, StartGate gate) throws InterruptedException {
        int n = config.nodes();
        int perNode = config.threadsPerNode();
        int firstWorker = first * perNode;
        int workers = (last - first + 1) * perNode;
        LockOptions options = LockOptions.defaults().withBudgets(config.localBudget(), config.remoteBudget());
        Thread starter = Thread.currentThread();
        AtomicInteger ready = new AtomicInteger();
        AtomicBoolean go = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[][] histograms = new long[workers][64];
        long[] ops = new long[workers];
        long[] localOps = new long[workers];
        AtomicLongArray inPair = new AtomicLongArray(workers);
        for (int i = 0; i < workers; i++) {
            inPair.set(i, -1);
        }
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            int slot = i;
            int worker = firstWorker + i;
            int node = worker / perNode;
            LatencySink sink = Objects.requireNonNull(sinks.apply(i), "sink of worker " + i);
            Thread t = ThreadTime.newThread("lock-bench-" + worker + "@node" + node, () -> {
                try (ComputeThread ct = nodes[node].newComputeThread()) {
                    LockContext context = new LockContext(ct, options);
                    context.queueNodes();
                    for (int peer = 0; peer < n; peer++) {
                        ct.fetchAndAdd(RemotePtr.offset(ct.segmentBase(peer, 0), ControlBlock.WATERMARK), 0);
                    }
                    TableLocks locks = table.open(context);
                    int csOps = config.criticalSectionOps();
                    long csWord = csOps == 0 ? 0 : ct.allocator().allocate(8, (node + 1) % n);
                    SplittableRandom random = new SplittableRandom(config.seed() * 31 + worker);
                    long[] histogram = histograms[slot];
                    ready.incrementAndGet();
                    ThreadTime.unpark(starter);
                    if (!awaitGo(go, stop)) {
                        return;
                    }
                    while (!stop.get()) {
                        boolean local = n == 1 || random.nextDouble() < config.pLocal();
                        int home = local ? node : (node + 1 + random.nextInt(n - 1)) % n;
                        long key = pickKey(random, table.size(), n, home);
                        inPair.set(slot, key);
                        long t0 = ThreadTime.nanoTime();
                        locks.lock(key);
                        for (int op = 0; op < csOps; op++) {
                            ct.write(csWord, ct.read(csWord) + 1);
                        }
                        locks.unlock(key);
                        long took = Math.max(0, ThreadTime.nanoTime() - t0);
                        sink.record(took);
                        histogram[64 - Long.numberOfLeadingZeros(took)]++;
                        ops[slot]++;
                        if (local) {
                            localOps[slot]++;
                        }
                        inPair.set(slot, -1);
                    }
                    if (csWord != 0) {
                        ct.allocator().deallocate(csWord, 8);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    stop.set(true);
                }
            });
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        long readyDeadline = ThreadTime.nanoTime() + START_BOUND.toNanos();
        while (ready.get() < workers) {
            if (failure.get() != null || ThreadTime.nanoTime() - readyDeadline > 0) {
                stop.set(true);
                wakeAll(threads);
                throw new RemusException("lock benchmark workers of node(s) " + first + ".." + last
                        + " were not all ready within " + START_BOUND, failure.get());
            }
            ThreadTime.parkNanos(ready, GATE_CHECK_NANOS);
        }
        try {
            gate.open();
        } catch (InterruptedException | RuntimeException e) {
            stop.set(true);
            wakeAll(threads);
            throw e;
        }
        go.set(true);
        wakeAll(threads);
        long begin = ThreadTime.nanoTime();
        long end = begin + config.duration().toNanos();
        for (long left = end - begin; left > 0; left = end - ThreadTime.nanoTime()) {
            ThreadTime.parkNanos(stop, left);
        }
        stop.set(true);
        long elapsed = ThreadTime.nanoTime() - begin;
        int[] perKey = new int[table.size()];
        int busiest = 0;
        long busiestKey = -1;
        for (int w = 0; w < workers; w++) {
            long key = inPair.get(w);
            if (key >= 0 && (++perKey[(int) key] > busiest || perKey[(int) key] == busiest && key < busiestKey)) {
                busiest = perKey[(int) key];
                busiestKey = key;
            }
        }
        long joinDeadline = ThreadTime.nanoTime() + STOP_BOUND.toNanos();
        for (Thread t : threads) {
            if (!ThreadTime.join(t, Math.max(1, joinDeadline - ThreadTime.nanoTime()))) {
                failure.compareAndSet(null, new RemoteTimeoutException(t.getName() + " did not stop within " + STOP_BOUND));
            }
        }
        long[] merged = new long[64];
        long total = 0;
        long local = 0;
        for (int w = 0; w < workers; w++) {
            for (int i = 0; i < 64; i++) {
                merged[i] += histograms[w][i];
            }
            total += ops[w];
            local += localOps[w];
        }
        return new Measured(new LockBenchmarkResult(table.kind(), total, local, elapsed, merged, busiest,
                busiestKey), failure.get());
    }

    /**
     * Waits, parked between checks, until the run starts or stops.
     *
     * @return true when it started, false when it stopped first
     * @throws RemusException when it did neither within {@link #START_BOUND}
     */
    private static boolean awaitGo(AtomicBoolean go, AtomicBoolean stop) {
        long deadline = ThreadTime.nanoTime() + START_BOUND.toNanos();
        while (!go.get()) {
            if (stop.get()) {
                return false;
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new RemusException("lock benchmark worker " + Thread.currentThread().getName()
                        + " was not started within " + START_BOUND);
            }
            ThreadTime.parkNanos(go, GATE_CHECK_NANOS);
        }
        return true;
    }

    private static void wakeAll(List<Thread> threads) {
        for (Thread t : threads) {
            ThreadTime.unpark(t);
        }
    }

    private static long pickKey(SplittableRandom random, int size, int nodes, int home) {
        int perNode = (size - home + nodes - 1) / nodes;
        return home + (long) nodes * random.nextInt(perNode);
    }
}
