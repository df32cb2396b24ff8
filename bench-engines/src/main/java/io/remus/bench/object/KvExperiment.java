package io.remus.bench.object;

import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.LockWord;
import io.remus.alock.kind.LockKind;
import io.remus.bench.engines.Handles;
import io.remus.bench.engines.InProcessNodes;
import io.remus.bench.reclaim.ReclaimBenchmarkConfig;
import io.remus.bench.stats.LatencySink;
import io.remus.bench.structure.Ycsb;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;
import io.remus.ds.delegate.Trust;
import io.remus.ds.delegate.Trustee;
import io.remus.ds.delegate.TrusteeClient;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * A key-value store under YCSB A and B (B. F. Cooper et al., "Benchmarking Cloud Serving Systems with
 * YCSB", SoCC 2010) three ways on one fabric: the one-sided hash map, delegation to each node's trustee
 * (Trust&lt;T&gt; / Gossamer, UIC 2025) and an ALock-protected table (ALock: Baran, Nelson-Slivon, Tseng,
 * Palmieri, "ALock: Asymmetric Lock Primitive for RDMA Systems", SPAA 2024). It starts {@code nodes} nodes and, for
 * each workload and each {@link KvWay} in turn, creates that way's store, loads keys {@code 0..keys-1}
 * (key {@code k} on node {@code k % nodes}) and runs {@code threadsPerNode} workers per node for the
 * configured duration. Each worker picks a key (uniform or zipfian through {@link HomePicker}, with
 * {@code pLocal} as {@link SharingExperiment}) and reads it or, with the workload's update fraction,
 * writes it a new value of {@link KvConfig#valueBytes()} bytes. With 8-byte values the delegated way's
 * operations take the value as their argument word and return it as their result word; larger values
 * travel as the trustees' payloads (in the same WRITEs, so the operation counts do not change).
 * The ways, per operation on a key of another node (on the worker's own node delegation costs no RDMA,
 * ALock takes its CPU-only local path and READs through the CPU but WRITEs through the loopback queue pair
 * in 1 round trip, and the map's doorbell batches and compare-and-swaps still take the loopback queue
 * pair: 1 round trip per get):
 * <ul>
 *   <li>{@link KvWay#ONE_SIDED}: one {@link RemoteHashMap} per node, homed there. A read is
 *       {@link RemoteHashMap#get(long, MemorySegment)}: 2 round trips expected, wait-free; an update is
 *       {@link RemoteHashMap#put(long, MemorySegment)} over a present key: 3 round trips expected besides
 *       memory management (the new block's allocation, the old one's retirement through the worker's
 *       {@link EpochReclaimer}), lock-free.
 *       Each linearizes where the map says. Each worker closes its handles on the maps when it is done, and
 *       node 0 then destroys the maps, which frees them.</li>
 *   <li>{@link KvWay#DELEGATED}: one {@link Trustee} per node, serving on its own thread, owns a plain
 *       {@code long[]} of its node's keys; operation {@code GET} (argument: the key) returns a key's value,
 *       {@code PUT} (argument: the value, which names its key) stores it. A worker calls
 *       {@link Trust#apply}: 2 WRITEs in 1 round trip (and the trustee's 2 response WRITEs, counted with the
 *       way's operations); blocking with a deadline; linearized when the trustee runs it.</li>
 *   <li>{@link KvWay#ALOCK}: per node one array of value words in that node's memory and one ALock per key
 *       (the finest striping: no two keys share a lock, so no operation waits on another key's, at
 *       {@link LockWord#SIZE} bytes per key). A read is lock, 1 READ, unlock; an update lock, 1 WRITE,
 *       unlock: 5 round trips uncontended (the remote acquire's compare-and-swap of the remote tail, WRITE
 *       of the victim and READ of the local tail, the release's compare-and-swap, and the access); blocking (the lock's acquire timeout outlasts the run); linearized inside the critical
 *       section.</li>
 * </ul>
 *
 * <p><b>Values and checks.</b> Every value is a word encoding its key, its writer and a sequence number
 * ({@link #value}), repeated to fill the value's bytes; a read whose words differ is a torn value and fails
 * the run with {@link KvReadMismatchException}. The loaded value of a key has writer 0 and sequence 0, and worker {@code w}'s
 * {@code s}-th update (counting from 1 over all its keys) writes writer {@code w + 1} and sequence
 * {@code s}, published before the update starts. A read must return a value of its own key that the
 * loader or some started update wrote; and when the reading worker has updated the key, neither the
 * loaded value nor an older value of its own. Otherwise the run fails with
 * {@link KvReadMismatchException}, so a store that drops updates or returns stale values is caught.
 *
 * <p><b>Counting.</b> RDMA operations and round trips are the differences of {@link ComputeThread}'s
 * counters around each worker's run (after its handles were opened and the keys loaded), plus the
 * trustees' for the delegated way; a worker also counts the round trips inside its reads and its
 * updates apart, and of the latter those the one-sided map's puts spent in memory management: the
 * allocator ({@link RemoteHashMap#allocatorRoundTrips()}) and the epoch reclaimer
 * ({@link EpochReclaimer#roundTrips()}).
 *
 * <p>Its waits: the workers (and trustees) must be ready within {@link #START_BOUND} and stop within
 * {@link #STOP_BOUND} of the run's end; remote operations time out after 10 s. The caller owns the fabric.
 * Every clock reading, wait, thread start and join goes through {@link ThreadTime}: called on the simulator's
 * virtual-time scheduler ({@link io.remus.core.sim.VirtualTimeScheduler}) the run's threads, duration, bounds and
 * latencies are virtual time; on a host thread they are the JDK's.
 */
public final class KvExperiment {
    /** How long the workers and trustees may take to open their compute threads and handles. */
    public static final Duration START_BOUND = Duration.ofSeconds(60);
    /** How long the workers and trustees may take to stop once told to. */
    public static final Duration STOP_BOUND = Duration.ofSeconds(30);
    private static final int GET = 0;
    private static final int PUT = 1;
    private static final int GET_BYTES = 2;
    private static final int PUT_BYTES = 3;
    private static final int KEY_SHIFT = 42;
    private static final int WRITER_SHIFT = 32;
    private static final long WRITER_MASK = (1L << (KEY_SHIFT - WRITER_SHIFT)) - 1;
    private static final long SEQUENCE_MASK = (1L << WRITER_SHIFT) - 1;

    private KvExperiment() {
    }

    /** Hands out each worker's latency sinks for one way and workload. */
    @FunctionalInterface
    public interface Sinks {
        /** Drops every sample. */
        Sinks NONE = (way, workload, worker, update) -> LatencySink.NONE;

        /**
         * @param way      the way about to run
         * @param workload its workload
         * @param worker   the worker, {@code 0..workers-1} (node-major)
         * @param update   true for the sink of its updates, false for its reads
         * @return the sink, called only from that worker's thread
         */
        LatencySink sink(KvWay way, Ycsb workload, int worker, boolean update);
    }

    /** One worker's access to a way's store; not thread-safe. */
    interface Store extends AutoCloseable {
        /** {@return the value of {@code key}} */
        long read(int key);

        /** Stores {@code value} (which names its key) under {@code key}. */
        void update(int key, long value);

        /**
         * {@return the round trips spent so far in memory management: the one-sided map's allocations of
         * new blocks and its epoch reclaimer's work (guards, retires, frees)}
         */
        default long memoryRoundTrips() {
            return 0;
        }

        /** Closes the handles the store opened; a store that opened none does nothing. */
        @Override
        default void close() {
        }
    }

    /**
     * Runs every workload and way without recording latencies.
     *
     * @param fabric a fresh fabric with no nodes open
     * @param config what to run
     * @return one result per workload and way, workload-major, in the configured orders
     * @throws KvReadMismatchException when a read returned a value the updates rule out
     * @throws RemusException          when a worker failed or did not stop in time
     */
    public static List<KvResult> run(Fabric fabric, KvConfig config) throws InterruptedException {
        return run(fabric, config, Sinks.NONE);
    }

    /**
     * Runs every workload and way, one after the other on the same nodes, handing each operation's
     * latency to its worker's sink for the operation's type.
     *
     * @param fabric a fresh fabric with no nodes open
     * @param config what to run
     * @param sinks  the sinks
     * @return one result per workload and way, workload-major, in the configured orders
     * @throws KvReadMismatchException when a read returned a value the updates rule out
     * @throws RemusException          when a worker failed or did not stop in time
     */
    public static List<KvResult> run(Fabric fabric, KvConfig config, Sinks sinks) throws InterruptedException {
        return run(fabric, config, sinks, UnaryOperator.identity());
    }

    /** {@link #run(Fabric, KvConfig, Sinks)} with every worker's store passed through {@code twist} (tests). */
    static List<KvResult> run(Fabric fabric, KvConfig config, Sinks sinks, UnaryOperator<Store> twist)
            throws InterruptedException {
        return run(fabric, config, sinks, twist, run -> { });
    }

    /**
     * {@link #run(Fabric, KvConfig, Sinks, UnaryOperator)} handing each measured run to {@code measured} while its
     * nodes are still open (tests).
     */
    static List<KvResult> run(Fabric fabric, KvConfig config, Sinks sinks, UnaryOperator<Store> twist,
                              Consumer<Run> measured) throws InterruptedException {
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(sinks, "sinks");
        int n = config.nodes();
        ClusterConfig base = InProcessNodes.config(n, config.segmentBytes(), config.threadsPerNode() + 2)
                .bufferSizePerThread(256 << 10).build();
        try (InProcessNodes cluster = InProcessNodes.start(fabric, base)) {
            RemusNode[] nodes = cluster.nodes();
            double zeta = HomePicker.zeta(config.keys(), n, config.pLocal(), config.zipfTheta());
            List<KvResult> results = new ArrayList<>();
            for (Ycsb workload : config.workloads()) {
                for (KvWay way : config.ways()) {
                    Run run = new Run(nodes, 0, n - 1, config, way, workload, zeta, sinks, twist,
                            SharingExperiment.Steps.IN_PROCESS);
                    results.add(run.measure());
                    measured.accept(run);
                }
            }
            return results;
        }
    }

    /**
     * @param key      the key, {@code 0..}{@link KvConfig#MAX_KEYS}{@code -1}
     * @param writer   0 for the loader, {@code w + 1} for worker {@code w}
     * @param sequence 0 for the loader, else the writer's update count, from 1
     * @return the value word: key in bits 42..63, writer in 32..41, sequence in 0..31
     */
    static long value(int key, int writer, long sequence) {
        return (long) key << KEY_SHIFT | (long) writer << WRITER_SHIFT | sequence;
    }

    /** {@return the key a {@link #value} word names} */
    static int keyOf(long value) {
        return (int) (value >>> KEY_SHIFT);
    }

    /** Writes {@code word} {@code words} times from {@code offset} of {@code to}: a value of {@code 8 * words} bytes. */
    static void fill(MemorySegment to, long offset, long word, int words) {
        for (int i = 0; i < words; i++) {
            to.set(ValueLayout.JAVA_LONG_UNALIGNED, offset + (long) i * Long.BYTES, word);
        }
    }

    /**
     * The word a value of {@code words} words at {@code offset} of {@code from} repeats.
     *
     * @throws KvReadMismatchException naming the key and both words when a later word differs from the first:
     *                                 a torn value
     */
    static long wordOf(String what, int key, MemorySegment from, long offset, int words) {
        long first = from.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
        for (int i = 1; i < words; i++) {
            long w = from.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + (long) i * Long.BYTES);
            if (w != first) {
                throw new KvReadMismatchException(what + ": key " + key + " read torn: word " + i + " of the value is 0x"
                        + Long.toHexString(w) + ", word 0 is 0x" + Long.toHexString(first));
            }
        }
        return first;
    }

    /**
     * The check of one read.
     *
     * @param what    the way and workload, for the message
     * @param worker  the reading worker
     * @param key     the key it read
     * @param value   what the read returned
     * @param mine    {@code mine[key]}: the sequence of the reader's last update of each key, 0 for none
     * @param issued  {@code issued[w]}: the sequence of worker {@code w}'s latest started update
     * @throws KvReadMismatchException naming the worker, key and value when the read cannot be
     */
    static void checkRead(String what, int worker, int key, long value, long[] mine, AtomicLongArray issued) {
        int writer = (int) ((value >>> WRITER_SHIFT) & WRITER_MASK);
        long sequence = value & SEQUENCE_MASK;
        String read = what + ": worker " + worker + " read key " + key + " as (key " + keyOf(value) + ", writer "
                + writer + ", sequence " + sequence + ")";
        if (keyOf(value) != key) {
            throw new KvReadMismatchException(read + ", a value of another key");
        }
        if (writer == 0 ? sequence != 0 : writer > issued.length() || sequence == 0
                || sequence > issued.get(writer - 1)) {
            throw new KvReadMismatchException(read + ", a value no update wrote");
        }
        long own = mine[key];
        if (own != 0 && (writer == 0 || (writer == worker + 1 && sequence < own))) {
            throw new KvReadMismatchException(read + " after its own update with sequence " + own
                    + ", an older value");
        }
    }

    /**
     * What the workers and trustees of some nodes measured in one run: a {@link KvResult} over those nodes.
     *
     * @param result their reads, updates, picks, RDMA operations and round trips; the elapsed time from the start
     *               to the last of these workers' end
     */
    record Partial(KvResult result) {
    }

    /** One way's run under one workload on the nodes {@code from..to} of this process: their workers and trustees. */
    static final class Run {
        private final RemusNode[] nodes;
        private final int from;
        private final int to;
        private final SharingExperiment.Steps steps;
        private final KvConfig config;
        private final KvWay way;
        private final Ycsb workload;
        private final double zeta;
        private final Sinks sinks;
        private final UnaryOperator<Store> twist;
        private final int workers;
        private final WorkerPhases phases;
        private final AtomicLongArray issued;
        private final long[][] posted;
        private final long[] roundTrips;
        private final long[] reads;
        private final long[] updates;
        private final long[] readTrips;
        private final long[] updateTrips;
        private final long[] memoryTrips;
        private final long[] local;
        private final long[] finishedAt;
        private final long[] roots;
        private long[] locks;

        /**
         * @param nodes every node of the cluster, by id; only {@code from..to} are used (the others may be null)
         * @param from  the first node in this process
         * @param to    the last node in this process
         * @param steps what happens between the run's steps across processes
         */
        Run(RemusNode[] nodes, int from, int to, KvConfig config, KvWay way, Ycsb workload, double zeta, Sinks sinks,
            UnaryOperator<Store> twist, SharingExperiment.Steps steps) {
            this.nodes = nodes;
            this.from = from;
            this.to = to;
            this.steps = steps;
            this.config = config;
            this.way = way;
            this.workload = workload;
            this.zeta = zeta;
            this.sinks = sinks;
            this.twist = twist;
            this.workers = config.workers();
            int localWorkers = (to - from + 1) * config.threadsPerNode();
            this.phases = new WorkerPhases("key-value experiment", localWorkers, START_BOUND, STOP_BOUND);
            this.issued = new AtomicLongArray(workers);
            for (int w = 0; w < workers; w++) {
                int node = w / config.threadsPerNode();
                if (node < from || node > to) {
                    // Another process's worker: its updates are not seen here, so any sequence of it may be read.
                    issued.set(w, SEQUENCE_MASK);
                }
            }
            this.posted = new long[workers + config.nodes()][Opcode.values().length];
            this.roundTrips = new long[workers + config.nodes()];
            this.reads = new long[workers];
            this.updates = new long[workers];
            this.readTrips = new long[workers];
            this.updateTrips = new long[workers];
            this.memoryTrips = new long[workers];
            this.local = new long[workers];
            this.finishedAt = new long[workers];
            this.roots = new long[config.nodes()];
        }

        private String what() {
            return way.flagName() + " under YCSB " + workload;
        }

        /** Every node in this process: creates and loads the store, runs, and frees the maps. */
        KvResult measure() throws InterruptedException {
            try (ComputeThread creator = nodes[0].newComputeThread();
                 NeverReclaimer never = new NeverReclaimer(creator)) {
                List<RemoteHashMap> maps = load(creator, never);
                Partial p = runLocal(roots, locks);
                for (RemoteHashMap m : maps) {
                    m.destroy();
                }
                return p.result();
            }
        }

        /** {@return the node {@code id} this run runs on} */
        RemusNode node(int id) {
            return nodes[id];
        }

        /** {@return the way this run measures} */
        KvWay way() {
            return way;
        }

        /** {@return each node's root: its map, or its ALock way's value array (after {@link #load})} */
        long[] roots() {
            return roots;
        }

        /** {@return the ALock way's lock word per key (after {@link #load}), else null} */
        long[] locks() {
            return locks;
        }

        /**
         * Runs the local workers (and, delegated, trustees) on a store another step created and loaded.
         *
         * @param nodeRoots each node's root, as {@link #roots()} (unused for the delegated way)
         * @param lockWords the ALock way's lock words, as {@link #locks()} (null for the other ways)
         * @return what they measured
         * @throws KvReadMismatchException when a local worker read a value the updates rule out
         */
        Partial runLocal(long[] nodeRoots, long[] lockWords) throws InterruptedException {
            System.arraycopy(nodeRoots, 0, roots, 0, roots.length);
            this.locks = lockWords;
            if (way == KvWay.DELEGATED) {
                phases.startTrustees(from, to, "kv-trustee", this::serve, steps);
            }
            for (int node = from; node <= to; node++) {
                for (int i = 0; i < config.threadsPerNode(); i++) {
                    int worker = node * config.threadsPerNode() + i;
                    int home = node;
                    phases.startWorker(() -> work(worker, home), "kv-" + way.flagName() + "-" + worker + "@node" + node);
                }
            }
            long begin;
            try {
                begin = phases.run(config.duration(), steps, way == KvWay.DELEGATED);
            } catch (RemusException e) {
                if (phases.failure() instanceof KvReadMismatchException mismatch) {
                    throw mismatch;
                }
                throw e;
            }
            return new Partial(result(begin));
        }

        LockOptions lockOptions() {
            return LockOptions.defaults().withAcquireTimeout(config.duration().plus(STOP_BOUND));
        }

        /** The keys a node holds: {@code node, node + nodes, ...}. */
        private int keysOn(int node) {
            return (config.keys() - node + config.nodes() - 1) / config.nodes();
        }

        /**
         * Creates the way's store on every node and loads every key's loaded value (the delegated way's
         * trustees load their own), recording each node's root in {@link #roots}.
         */
        List<RemoteHashMap> load(ComputeThread creator, Reclaimer never) {
            int n = config.nodes();
            int words = config.valueWords();
            List<RemoteHashMap> maps = new ArrayList<>();
            switch (way) {
                case ONE_SIDED -> {
                    MemorySegment value = MemorySegment.ofArray(new long[words]);
                    for (int node = 0; node < n; node++) {
                        RemoteHashMap m = RemoteHashMap.create(creator, never, node, buckets(keysOn(node)), config.valueBytes());
                        maps.add(m);
                        roots[node] = m.ptr();
                        for (int k = node; k < config.keys(); k += n) {
                            fill(value, 0, value(k, 0, 0), words);
                            m.put(k, value);
                        }
                    }
                }
                case ALOCK -> {
                    MemorySegment buf = creator.buffer();
                    int bytes = config.valueBytes();
                    for (int node = 0; node < n; node++) {
                        int count = keysOn(node);
                        long values = creator.allocator().allocate((long) count * bytes, node);
                        roots[node] = values;
                        int chunk = (int) Math.min(buf.byteSize() / bytes, count);
                        for (int from = 0; from < count; from += chunk) {
                            int len = Math.min(chunk, count - from);
                            for (int i = 0; i < len; i++) {
                                fill(buf, (long) i * bytes, value(node + (from + i) * n, 0, 0), words);
                            }
                            creator.write(RemotePtr.offset(values, (long) from * bytes), 0, len * bytes);
                        }
                    }
                    locks = new long[config.keys()];
                    for (int k = 0; k < config.keys(); k++) {
                        locks[k] = LockWord.allocate(creator, creator.allocator(), k % n);
                    }
                }
                case DELEGATED -> {
                }
            }
            return maps;
        }

        /** Buckets for {@code keys} keys: a power of two with at least four slots per key. */
        private static int buckets(int keys) {
            long need = Math.max(2, (4L * keys + RemoteHashMap.SLOTS_PER_BUCKET - 1) / RemoteHashMap.SLOTS_PER_BUCKET);
            long b = Long.highestOneBit(need);
            return (int) Math.min(b < need ? b << 1 : b, Integer.highestOneBit(RemoteHashMap.MAX_BUCKETS));
        }

        private KvResult result(long begin) {
            long r = 0;
            long u = 0;
            long locals = 0;
            long rt = 0;
            long ut = 0;
            long at = 0;
            long last = begin;
            for (int w = 0; w < workers; w++) {
                r += reads[w];
                u += updates[w];
                locals += local[w];
                rt += readTrips[w];
                ut += updateTrips[w];
                at += memoryTrips[w];
                last = Math.max(last, finishedAt[w]);
            }
            long[] sum = new long[Opcode.values().length];
            long trips = 0;
            for (int t = 0; t < posted.length; t++) {
                for (int k = 0; k < sum.length; k++) {
                    sum[k] += posted[t][k];
                }
                trips += roundTrips[t];
            }
            return new KvResult(way, workload, r, u, locals, last - begin, sum, trips, rt, ut, at);
        }

        /**
         * A trustee's thread: owns the keys of {@code node} in a plain table indexed by {@code key / nodes},
         * serves until told to stop (after every worker has stopped, so that no worker waits on a trustee
         * that left).
         */
        private void serve(int node, CompletableFuture<Long> ptr) {
            int n = config.nodes();
            int words = config.valueWords();
            int bytes = config.valueBytes();
            try (ComputeThread ct = nodes[node].newComputeThread()) {
                Trustee<long[]> trustee = Trustee.create(ct, workers, 1, words == 1 ? 0 : bytes);
                try {
                    trustee.register(GET, (table, key) -> table[(int) key / n]);
                    trustee.register(PUT, (table, value) -> {
                        table[keyOf(value) / n] = value;
                        return 0;
                    });
                    if (words > 1) {
                        trustee.register(GET_BYTES, (long[] table, MemorySegment request, MemorySegment response) -> {
                            int key = (int) request.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                            MemorySegment.copy(table, (key / n) * words, response, ValueLayout.JAVA_LONG_UNALIGNED, 0, words);
                            return bytes;
                        });
                        trustee.register(PUT_BYTES, (long[] table, MemorySegment request, MemorySegment response) -> {
                            if (request.byteSize() != bytes) {
                                throw new KvReadMismatchException(what() + ": an update of " + request.byteSize()
                                        + " bytes, not " + bytes);
                            }
                            int key = keyOf(request.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
                            MemorySegment.copy(request, ValueLayout.JAVA_LONG_UNALIGNED, 0, table, (key / n) * words, words);
                            return 0;
                        });
                    }
                    long[] table = new long[keysOn(node) * words];
                    for (int i = 0; i < keysOn(node); i++) {
                        java.util.Arrays.fill(table, i * words, (i + 1) * words, value(node + i * n, 0, 0));
                    }
                    trustee.entrust(table);
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
                } finally {
                    trustee.close();
                }
            } catch (RuntimeException | Error e) {
                ptr.completeExceptionally(e);
                throw e;
            }
        }

        private Store open(ComputeThread ct, EpochReclaimer reclaimer) {
            int n = config.nodes();
            int words = config.valueWords();
            int bytes = config.valueBytes();
            return switch (way) {
                case ONE_SIDED -> {
                    RemoteHashMap[] maps = new RemoteHashMap[n];
                    try {
                        for (int node = 0; node < n; node++) {
                            maps[node] = RemoteHashMap.attach(ct, reclaimer, roots[node]);
                        }
                    } catch (RuntimeException | Error e) {
                        Handles.closeAll(Arrays.asList(maps));
                        throw e;
                    }
                    MemorySegment value = MemorySegment.ofArray(new long[words]);
                    yield new Store() {
                        @Override
                        public long read(int key) {
                            long got = maps[key % n].get(key, value);
                            if (got != bytes) {
                                throw new KvReadMismatchException(what() + ": key " + key
                                        + (got < 0 ? " is missing" : " has a value of " + got + " bytes, not " + bytes));
                            }
                            return wordOf(what(), key, value, 0, words);
                        }

                        @Override
                        public void update(int key, long word) {
                            fill(value, 0, word, words);
                            maps[key % n].put(key, value);
                        }

                        @Override
                        public long memoryRoundTrips() {
                            long sum = reclaimer.roundTrips();
                            for (RemoteHashMap m : maps) {
                                sum += m.allocatorRoundTrips();
                            }
                            return sum;
                        }

                        @Override
                        public void close() {
                            Handles.closeAll(Arrays.asList(maps));
                        }
                    };
                }
                case DELEGATED -> {
                    @SuppressWarnings("unchecked")
                    Trust<long[]>[] trusts = new Trust[n];
                    for (int node = 0; node < n; node++) {
                        long ptr = phases.trustee(ct, node, steps);
                        trusts[node] = TrusteeClient.connect(ct, ptr).trust(0);
                    }
                    Duration timeout = config.duration().plus(STOP_BOUND);
                    if (words == 1) {
                        yield new Store() {
                            @Override
                            public long read(int key) {
                                return trusts[key % n].apply(GET, key, timeout);
                            }

                            @Override
                            public void update(int key, long value) {
                                trusts[key % n].apply(PUT, value, timeout);
                            }
                        };
                    }
                    MemorySegment keyWord = MemorySegment.ofArray(new long[1]);
                    MemorySegment value = MemorySegment.ofArray(new long[words]);
                    yield new Store() {
                        @Override
                        public long read(int key) {
                            keyWord.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, key);
                            int got = trusts[key % n].apply(GET_BYTES, keyWord, value, timeout);
                            if (got != bytes) {
                                throw new KvReadMismatchException(what() + ": key " + key + " has a value of " + got
                                        + " bytes, not " + bytes);
                            }
                            return wordOf(what(), key, value, 0, words);
                        }

                        @Override
                        public void update(int key, long word) {
                            fill(value, 0, word, words);
                            trusts[key % n].apply(PUT_BYTES, value, value, timeout);
                        }
                    };
                }
                case ALOCK -> {
                    LockContext context = new LockContext(ct, lockOptions());
                    Lock[] lock = new Lock[config.keys()];
                    long[] cell = new long[config.keys()];
                    for (int k = 0; k < config.keys(); k++) {
                        lock[k] = LockKind.ALOCK.open(context, locks[k]);
                        cell[k] = RemotePtr.offset(roots[k % n], (long) (k / n) * bytes);
                    }
                    MemorySegment buf = ct.buffer();
                    yield new Store() {
                        @Override
                        public long read(int key) {
                            lock[key].lock();
                            try {
                                ct.read(cell[key], 0, bytes);
                            } finally {
                                lock[key].unlock();
                            }
                            return wordOf(what(), key, buf, 0, words);
                        }

                        @Override
                        public void update(int key, long value) {
                            fill(buf, 0, value, words);
                            lock[key].lock();
                            try {
                                ct.write(cell[key], 0, bytes);
                            } finally {
                                lock[key].unlock();
                            }
                        }
                    };
                }
            };
        }

        private void work(int worker, int node) {
            try (ComputeThread ct = nodes[node].newComputeThread();
                 EpochReclaimer r = way == KvWay.ONE_SIDED
                         ? new EpochReclaimer(ct, ct.allocator(), ReclaimBenchmarkConfig.benchEpochOptions()) : null;
                 Store opened = open(ct, r)) {
                Store store = twist.apply(opened);
                LatencySink readSink = sinks.sink(way, workload, worker, false);
                LatencySink updateSink = sinks.sink(way, workload, worker, true);
                SplittableRandom rnd = new SplittableRandom(config.seed() * 31 + worker);
                HomePicker picker = new HomePicker(config.keys(), config.nodes(), config.pLocal(), config.zipfTheta(),
                        zeta, node, rnd);
                long[] mine = new long[config.keys()];
                int updatePercent = workload.updatePercent();
                String what = what();
                int n = config.nodes();
                long[] before = ObjectBenchmark.posted(ct);
                long tripsBefore = ct.roundTrips();
                phases.arrive();
                long sequence = 0;
                long r0 = 0;
                long u0 = 0;
                long rTrips = 0;
                long uTrips = 0;
                long mTrips = 0;
                long locals = 0;
                while (phases.running()) {
                    int key = picker.next();
                    if (rnd.nextInt(100) < updatePercent) {
                        sequence++;
                        issued.set(worker, sequence);
                        long v = value(key, worker + 1, sequence);
                        long t = ct.roundTrips();
                        long m = store.memoryRoundTrips();
                        long s = ThreadTime.nanoTime();
                        store.update(key, v);
                        updateSink.record(ThreadTime.nanoTime() - s);
                        uTrips += ct.roundTrips() - t;
                        mTrips += store.memoryRoundTrips() - m;
                        mine[key] = sequence;
                        u0++;
                    } else {
                        long t = ct.roundTrips();
                        long s = ThreadTime.nanoTime();
                        long v = store.read(key);
                        readSink.record(ThreadTime.nanoTime() - s);
                        rTrips += ct.roundTrips() - t;
                        checkRead(what, worker, key, v, mine, issued);
                        r0++;
                    }
                    if (key % n == node) {
                        locals++;
                    }
                }
                finishedAt[worker] = ThreadTime.nanoTime();
                reads[worker] = r0;
                updates[worker] = u0;
                readTrips[worker] = rTrips;
                updateTrips[worker] = uTrips;
                memoryTrips[worker] = mTrips;
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
