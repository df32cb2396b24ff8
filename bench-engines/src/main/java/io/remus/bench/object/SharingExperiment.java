package io.remus.bench.object;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.bench.engines.Handles;
import io.remus.bench.engines.InProcessNodes;
import io.remus.bench.reclaim.ReclaimBenchmarkConfig;
import io.remus.bench.stats.LatencySink;
import io.remus.bench.structure.KeyChooser;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.time.ThreadTime;
import io.remus.ds.delegate.Trust;
import io.remus.ds.delegate.Trustee;
import io.remus.ds.delegate.TrusteeClient;
import io.remus.ds.object.LockedObject;
import io.remus.ds.object.RemoteCounter;
import io.remus.ds.object.WaitFreeObject;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Gossamer's shared-counter microbenchmark (Trust&lt;T&gt; / Gossamer, UIC 2025) over one-sided RDMA:
 * starts {@code nodes} nodes on a fabric and, for each configured {@link SharingWay} in turn, creates
 * that way's own {@code counters} counters (counter {@code i} on node {@code i % nodes}) and runs
 * {@code threadsPerNode} workers per node for the configured duration. Each worker repeatedly picks a
 * counter (uniform or zipfian after Gray et al., SIGMOD 1994, through {@link KeyChooser}; with
 * {@code pLocal}, first the home node as {@code remus bench lock} does: its own with probability
 * {@code pLocal}, else another at random), increments it by one and takes the value after the
 * increment. The ways, per increment:
 * <ul>
 *   <li>{@link SharingWay#FAA}: {@link RemoteCounter#fetchAndAdd}, 1 fetch-and-add, 1 round trip;
 *       wait-free; linearized at the atomic.</li>
 *   <li>{@link SharingWay#ALOCK}, {@link SharingWay#SPIN}, {@link SharingWay#MCS}: a
 *       {@link LockedObject} counter under its own lock: the lock's operations, then 1 READ and 1 WRITE
 *       of the state; blocking (the lock's acquire timeout outlasts the run); linearized inside the
 *       critical section.</li>
 *   <li>{@link SharingWay#DELEGATED}: one {@link Trustee} per node, serving on its own thread, owns the
 *       counters of its node; a worker calls {@link Trust#apply}: from another node 2 WRITEs in 1 round
 *       trip (and the trustee's 2 response WRITEs, counted with the way's operations), from the
 *       trustee's node no RDMA; blocking with a deadline; linearized when the trustee runs it.</li>
 *   <li>{@link SharingWay#WAITFREE}: a {@link WaitFreeObject} counter (the universal construction);
 *       wait-free; its costs are {@link WaitFreeObject#apply}'s.</li>
 * </ul>
 *
 * <p><b>Checks.</b> Every worker keeps its own increments per counter; an increment that returns less
 * than those fails the run, and at the end every counter's value must equal the increments applied to
 * it, else {@link CounterMismatchException}. The final values are read after the workers stopped and
 * are not part of the measurement.
 *
 * <p><b>Counting.</b> RDMA operations and round trips are the differences of {@link ComputeThread}'s
 * counters around each worker's run (after its handles were opened), plus the trustees' for the
 * delegated way. Handles are opened on every counter before the run starts (for the wait-free way one
 * READ and one fetch-and-add each), so setup is not measured. Each worker closes its handles when it is done,
 * and node 0 then destroys the counters, which frees them.
 *
 * <p>Its waits: the workers (and trustees) must be ready within {@link #START_BOUND} and stop within
 * {@link #STOP_BOUND} of the run's end; remote operations time out after 10 s. The caller owns the fabric.
 * Every clock reading, wait, thread start and join goes through {@link ThreadTime}: called on the simulator's
 * virtual-time scheduler ({@link io.remus.core.sim.VirtualTimeScheduler}) the run's threads, duration, bounds and
 * latencies are virtual time; on a host thread they are the JDK's.
 */
public final class SharingExperiment {
    /** How long the workers and trustees may take to open their compute threads and handles. */
    public static final Duration START_BOUND = Duration.ofSeconds(60);
    /** How long the workers and trustees may take to stop once told to. */
    public static final Duration STOP_BOUND = Duration.ofSeconds(30);
    private static final int INCREMENT = 0;

    private SharingExperiment() {
    }

    /** Hands out each worker's latency sink for one way. */
    @FunctionalInterface
    public interface Sinks {
        /** Drops every sample. */
        Sinks NONE = (way, worker) -> LatencySink.NONE;

        /**
         * @param way    the way about to run
         * @param worker the worker, {@code 0..workers-1} (node-major)
         * @return its sink, called only from that worker's thread
         */
        LatencySink sink(SharingWay way, int worker);
    }

    /**
     * Runs every way without recording latencies.
     *
     * @param fabric a fresh fabric with no nodes open
     * @param config what to run
     * @return one result per way, in the configured order
     * @throws CounterMismatchException when a counter's values contradict its increments
     * @throws RemusException           when a worker failed or did not stop in time
     */
    public static List<SharingResult> run(Fabric fabric, SharingConfig config) throws InterruptedException {
        return run(fabric, config, Sinks.NONE);
    }

    /**
     * Runs every way, one after the other on the same nodes, handing each increment's latency to its
     * worker's sink.
     *
     * @param fabric a fresh fabric with no nodes open
     * @param config what to run
     * @param sinks  the sinks
     * @return one result per way, in the configured order
     * @throws CounterMismatchException when a counter's values contradict its increments
     * @throws RemusException           when a worker failed or did not stop in time
     */
    public static List<SharingResult> run(Fabric fabric, SharingConfig config, Sinks sinks) throws InterruptedException {
        return run(fabric, config, sinks, run -> { });
    }

    /** {@link #run(Fabric, SharingConfig, Sinks)} handing each measured run to {@code measured} while its nodes are open (tests). */
    static List<SharingResult> run(Fabric fabric, SharingConfig config, Sinks sinks, Consumer<Run> measured)
            throws InterruptedException {
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(sinks, "sinks");
        int n = config.nodes();
        ClusterConfig base = InProcessNodes.config(n, config.segmentBytes(), config.threadsPerNode() + 2)
                .bufferSizePerThread(256 << 10).build();
        try (InProcessNodes cluster = InProcessNodes.start(fabric, base)) {
            RemusNode[] nodes = cluster.nodes();
            double zeta = HomePicker.zeta(config.counters(), n, config.pLocal(), config.zipfTheta());
            List<SharingResult> results = new ArrayList<>();
            for (SharingWay way : config.ways()) {
                Run run = new Run(nodes, 0, n - 1, config, way, zeta, sinks, Steps.IN_PROCESS);
                results.add(run.measure());
                measured.accept(run);
            }
            return results;
        }
    }

    /**
     * The end-of-run check: every counter holds exactly the increments the workers applied to it, and
     * all of them together the run's increments.
     *
     * @param way         the way, for the message
     * @param finalValues each counter's value after the run
     * @param applied     {@code applied[worker][counter]}: the increments each worker applied
     * @param increments  the run's increments
     * @throws CounterMismatchException naming the way, the counter and both values, at the first mismatch
     */
    static void checkTotals(SharingWay way, long[] finalValues, int[][] applied, long increments) {
        long sumOfValues = 0;
        for (int c = 0; c < finalValues.length; c++) {
            long expected = 0;
            for (int[] mine : applied) {
                expected += mine[c];
            }
            if (finalValues[c] != expected) {
                throw new CounterMismatchException(way.flagName() + ": counter " + c + " holds " + finalValues[c]
                        + " after " + expected + " increments");
            }
            sumOfValues += finalValues[c];
        }
        if (sumOfValues != increments) {
            throw new CounterMismatchException(way.flagName() + ": the counters hold " + sumOfValues + " in all after "
                    + increments + " increments");
        }
    }

    /** A worker's way of incrementing counter {@code c}: returns the value after the increment. */
    @FunctionalInterface
    private interface Increment {
        long apply(int c);
    }

    /** The handles a worker opened, each closed when the worker is done. */
    private static final class Opened implements AutoCloseable {
        final List<AutoCloseable> list = new ArrayList<>();

        @Override
        public void close() {
            Handles.closeAll(list);
        }
    }

    /**
     * What the workers and trustees of some nodes measured in one way's run: the part of a {@link SharingResult}
     * those nodes know, before the counters' final values are checked.
     *
     * @param increments       the increments of these nodes' workers
     * @param localPicks       those on a counter of the worker's own node
     * @param elapsedNanos     from the start to the last of these workers' end
     * @param postedOperations their posted RDMA operations (the trustees' included), by {@link Opcode} ordinal
     * @param roundTrips       their round trips
     * @param applied          per counter, the increments these workers applied to it
     * @param trusteeValues    the delegated way: per counter, its value as its trustee on these nodes read it
     *                         after the run (0 for counters of other nodes); empty for the other ways
     */
    record Partial(long increments, long localPicks, long elapsedNanos, long[] postedOperations, long roundTrips,
                   int[] applied, long[] trusteeValues) {
    }

    /**
     * What a way's run does between its steps when its nodes are not all in this process (nothing when they are).
     */
    interface Steps {
        /** In-process: every trustee is local and hands its pointer over directly. */
        Steps IN_PROCESS = new Steps() {
        };

        /**
         * A local trustee started serving.
         *
         * @param node its node
         * @param ptr  its pointer
         */
        default void trusteeStarted(int node, long ptr) {
        }

        /**
         * The pointer of the trustee of a node that is not in this process, for a worker's compute thread.
         *
         * @param ct   the worker's compute thread
         * @param node the trustee's node
         * @return its pointer
         */
        default long remoteTrustee(ComputeThread ct, int node) {
            throw new IllegalStateException("node " + node + " is in this process");
        }

        /** Every local worker is ready: returns once every node's are. */
        default void ready() {
        }

        /** Every local worker stopped: returns once every node's did, so that a trustee may stop serving. */
        default void workersStopped() {
        }
    }

    /** One way's run on the nodes {@code from..to} of this process: their workers and (delegated) trustees. */
    static final class Run {
        private final RemusNode[] nodes;
        private final int from;
        private final int to;
        private final SharingConfig config;
        private final SharingWay way;
        private final double zeta;
        private final Sinks sinks;
        private final Steps steps;
        private final int workers;
        private final WorkerPhases phases;
        private final long[][] posted;
        private final long[] roundTrips;
        private final long[] done;
        private final long[] local;
        private final long[] finishedAt;
        private final int[][] applied;
        private final long[] trusteeValues;
        private long[] ptrs;

        /**
         * @param nodes every node of the cluster, by id; only {@code from..to} are used (the others may be null)
         * @param from  the first node in this process
         * @param to    the last node in this process
         */
        Run(RemusNode[] nodes, int from, int to, SharingConfig config, SharingWay way, double zeta, Sinks sinks, Steps steps) {
            this.nodes = nodes;
            this.from = from;
            this.to = to;
            this.config = config;
            this.way = way;
            this.zeta = zeta;
            this.sinks = sinks;
            this.steps = steps;
            this.workers = config.workers();
            int localWorkers = (to - from + 1) * config.threadsPerNode();
            this.phases = new WorkerPhases("sharing experiment", localWorkers, START_BOUND, STOP_BOUND);
            this.posted = new long[workers + config.nodes()][Opcode.values().length];
            this.roundTrips = new long[workers + config.nodes()];
            this.done = new long[workers];
            this.local = new long[workers];
            this.finishedAt = new long[workers];
            this.applied = new int[workers][];
            this.trusteeValues = new long[way == SharingWay.DELEGATED ? config.counters() : 0];
        }

        /** Every node in this process: creates the counters, runs, reads and checks them. */
        SharingResult measure() throws InterruptedException {
            try (ComputeThread creator = nodes[0].newComputeThread();
                 NeverReclaimer never = new NeverReclaimer(creator)) {
                List<Object> handles = create(creator, never, new LockContext(creator, lockOptions()));
                try {
                    Partial p = runLocal(ptrs);
                    long[] values = way == SharingWay.DELEGATED ? p.trusteeValues() : readFinal(handles);
                    checkTotals(way, values, new int[][]{p.applied()}, p.increments());
                    return new SharingResult(way, p.increments(), p.localPicks(), p.elapsedNanos(),
                            p.postedOperations(), p.roundTrips());
                } finally {
                    destroy(handles);
                }
            }
        }

        /**
         * Runs the local workers (and, delegated, trustees) on counters another step created.
         *
         * @param counterPtrs every counter's pointer (null for the delegated way)
         * @return what they measured
         */
        Partial runLocal(long[] counterPtrs) throws InterruptedException {
            this.ptrs = counterPtrs;
            if (way == SharingWay.DELEGATED) {
                phases.startTrustees(from, to, "sharing-trustee", this::serve, steps);
            }
            for (int node = from; node <= to; node++) {
                for (int i = 0; i < config.threadsPerNode(); i++) {
                    int worker = node * config.threadsPerNode() + i;
                    int home = node;
                    phases.startWorker(() -> work(worker, home), "sharing-" + way.flagName() + "-" + worker + "@node" + node);
                }
            }
            long begin = phases.run(config.duration(), steps, way == SharingWay.DELEGATED);
            return partial(begin);
        }

        LockOptions lockOptions() {
            return LockOptions.defaults().withAcquireTimeout(config.duration().plus(STOP_BOUND));
        }

        /**
         * Creates the way's counters (none for the delegated way: its trustees hold them); their pointers are then
         * {@link #counterPtrs()}.
         *
         * @return a handle per counter, for {@link #readFinal}
         */
        List<Object> create(ComputeThread creator, Reclaimer never, LockContext context) {
            int n = config.nodes();
            List<Object> handles = new ArrayList<>();
            ptrs = new long[config.counters()];
            for (int i = 0; i < config.counters(); i++) {
                int home = i % n;
                switch (way) {
                    case FAA -> {
                        RemoteCounter c = RemoteCounter.create(creator, home, 0);
                        ptrs[i] = c.ptr();
                        handles.add(c);
                    }
                    case ALOCK, SPIN, MCS -> {
                        LockedObject<long[]> o = LockedObject.create(context, way.lock(), home, WordObjects.counter());
                        ptrs[i] = o.ptr();
                        handles.add(o);
                    }
                    case WAITFREE -> {
                        WaitFreeObject<long[]> o = WaitFreeObject.create(creator, never, home, workers + 1,
                                WordObjects.counter());
                        ptrs[i] = o.ptr();
                        handles.add(o);
                    }
                    case DELEGATED -> {
                        return handles;
                    }
                }
            }
            return handles;
        }

        /**
         * Destroys the counters through the handles {@link #create} returned: each counter's memory is freed once
         * the last worker's handle on it is closed too. Destroys every one, then throws the first failure.
         */
        void destroy(List<Object> handles) {
            List<AutoCloseable> destroys = new ArrayList<>();
            for (Object h : handles) {
                destroys.add(switch (h) {
                    case RemoteCounter c -> c::destroy;
                    case LockedObject<?> o -> o::destroy;
                    case WaitFreeObject<?> o -> o::destroy;
                    default -> throw new IllegalStateException("not a counter handle: " + h);
                });
            }
            Handles.closeAll(destroys);
        }

        /** {@return the node {@code id} this run runs on} */
        RemusNode node(int id) {
            return nodes[id];
        }

        /** {@return every counter's pointer, once {@link #create} made them} */
        long[] counterPtrs() {
            return ptrs;
        }

        /** Reads every counter through the handles {@link #create} returned, after the run. */
        @SuppressWarnings("unchecked")
        long[] readFinal(List<Object> handles) {
            long[] finalValues = new long[config.counters()];
            for (int i = 0; i < handles.size(); i++) {
                finalValues[i] = switch (way) {
                    case FAA -> ((RemoteCounter) handles.get(i)).read();
                    case ALOCK, SPIN, MCS -> ((LockedObject<long[]>) handles.get(i)).read()[0];
                    case WAITFREE -> ((WaitFreeObject<long[]>) handles.get(i)).read()[0];
                    case DELEGATED -> throw new IllegalStateException("the trustees read the delegated counters");
                };
            }
            return finalValues;
        }

        private Partial partial(long begin) {
            long increments = 0;
            long locals = 0;
            long last = begin;
            int[] perCounter = new int[config.counters()];
            for (int w = 0; w < workers; w++) {
                increments += done[w];
                locals += local[w];
                last = Math.max(last, finishedAt[w]);
                if (applied[w] != null) {
                    for (int c = 0; c < perCounter.length; c++) {
                        perCounter[c] += applied[w][c];
                    }
                }
            }
            long[] sum = new long[Opcode.values().length];
            long trips = 0;
            for (int t = 0; t < posted.length; t++) {
                for (int k = 0; k < sum.length; k++) {
                    sum[k] += posted[t][k];
                }
                trips += roundTrips[t];
            }
            return new Partial(increments, locals, last - begin, sum, trips, perCounter, trusteeValues);
        }

        /**
         * A trustee's thread: owns the counters of {@code node}, serves until told to stop (after every
         * worker has stopped, so that no worker waits on a trustee that left), then reads them.
         */
        private void serve(int node, CompletableFuture<Long> ptr) {
            int n = config.nodes();
            try (ComputeThread ct = nodes[node].newComputeThread()) {
                Trustee<long[]> trustee = Trustee.create(ct, workers, 1);
                try {
                    trustee.register(INCREMENT, (cell, arg) -> cell[0] += arg);
                    for (int i = node; i < config.counters(); i += n) {
                        trustee.entrust(new long[1]);
                    }
                    long[] before = ObjectBenchmark.posted(ct);
                    long tripsBefore = ct.roundTrips();
                    ptr.complete(trustee.ptr());
                    while (phases.serving()) {
                        if (trustee.serveOnce() == 0) {
                            ThreadTime.yield();
                        }
                    }
                    long[] after = ObjectBenchmark.posted(ct);
                    for (int k = 0; k < after.length; k++) {
                        posted[workers + node][k] = after[k] - before[k];
                    }
                    roundTrips[workers + node] = ct.roundTrips() - tripsBefore;
                    for (int i = node, id = 0; i < config.counters(); i += n, id++) {
                        trusteeValues[i] = trustee.property(id)[0];
                    }
                } finally {
                    trustee.close();
                }
            } catch (RuntimeException | Error e) {
                ptr.completeExceptionally(e);
                throw e;
            }
        }

        @SuppressWarnings("unchecked")
        private Increment open(ComputeThread ct, Reclaimer r, LockContext context, List<AutoCloseable> opened) {
            int counters = config.counters();
            return switch (way) {
                case FAA -> {
                    RemoteCounter[] c = new RemoteCounter[counters];
                    for (int i = 0; i < counters; i++) {
                        c[i] = RemoteCounter.attach(ct, ptrs[i]);
                        opened.add(c[i]);
                    }
                    yield i -> c[i].fetchAndAdd(1) + 1;
                }
                case ALOCK, SPIN, MCS -> {
                    LockedObject<long[]>[] o = new LockedObject[counters];
                    for (int i = 0; i < counters; i++) {
                        o[i] = LockedObject.attach(context, way.lock(), ptrs[i], WordObjects.counter());
                        opened.add(o[i]);
                    }
                    yield i -> o[i].apply(WordObjects.UPDATE, 1) + 1;
                }
                case WAITFREE -> {
                    WaitFreeObject<long[]>[] o = new WaitFreeObject[counters];
                    for (int i = 0; i < counters; i++) {
                        o[i] = WaitFreeObject.attach(ct, r, ptrs[i], WordObjects.counter());
                        opened.add(o[i]);
                    }
                    yield i -> o[i].apply(WordObjects.UPDATE, 1) + 1;
                }
                case DELEGATED -> {
                    int n = config.nodes();
                    TrusteeClient[] clients = new TrusteeClient[n];
                    for (int t = 0; t < n; t++) {
                        clients[t] = TrusteeClient.connect(ct, phases.trustee(ct, t, steps));
                    }
                    Duration timeout = config.duration().plus(STOP_BOUND);
                    yield i -> clients[i % n].<long[]>trust(i / n).apply(INCREMENT, 1, timeout);
                }
            };
        }

        private void work(int worker, int node) {
            try (ComputeThread ct = nodes[node].newComputeThread();
                 Reclaimer r = way == SharingWay.WAITFREE
                         ? new EpochReclaimer(ct, ct.allocator(), ReclaimBenchmarkConfig.benchEpochOptions()) : null;
                 Opened opened = new Opened()) {
                Increment inc = open(ct, r, new LockContext(ct, lockOptions()), opened.list);
                LatencySink sink = sinks.sink(way, worker);
                HomePicker picker = new HomePicker(config.counters(), config.nodes(), config.pLocal(), config.zipfTheta(),
                        zeta, node, new SplittableRandom(config.seed() * 31 + worker));
                int[] mine = new int[config.counters()];
                applied[worker] = mine;
                int n = config.nodes();
                long[] before = ObjectBenchmark.posted(ct);
                long tripsBefore = ct.roundTrips();
                phases.arrive();
                long count = 0;
                long locals = 0;
                while (phases.running()) {
                    int c = picker.next();
                    long s = ThreadTime.nanoTime();
                    long value = inc.apply(c);
                    sink.record(ThreadTime.nanoTime() - s);
                    mine[c]++;
                    if (value < mine[c]) {
                        throw new CounterMismatchException(way.flagName() + ": counter " + c + " returned " + value
                                + " after worker " + worker + "'s own " + mine[c] + " increments");
                    }
                    count++;
                    if (c % n == node) {
                        locals++;
                    }
                }
                finishedAt[worker] = ThreadTime.nanoTime();
                done[worker] = count;
                local[worker] = locals;
                long[] after = ObjectBenchmark.posted(ct);
                for (int k = 0; k < after.length; k++) {
                    posted[worker][k] = after[k] - before[k];
                }
                roundTrips[worker] = ct.roundTrips() - tripsBefore;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RemusException("interrupted while waiting for the other workers", e);
            } catch (BrokenBarrierException | TimeoutException e) {
                throw new RemusException("the other workers did not arrive within " + START_BOUND + " (" + e + ")", e);
            }
        }
    }
}
