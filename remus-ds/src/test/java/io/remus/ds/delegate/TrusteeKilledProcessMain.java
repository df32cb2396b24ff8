package io.remus.ds.delegate;

import io.remus.check.HistoryClock;
import io.remus.check.HistoryJournal;
import io.remus.check.spec.CounterSpec;
import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.Root;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.RemusException;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

import static io.remus.ds.testing.ChildMain.awaitFile;
import static io.remus.ds.testing.ChildMain.halt;
import static io.remus.ds.testing.ChildMain.mapInFlight;
import static io.remus.ds.testing.ChildMain.progress;
import static io.remus.ds.testing.ChildMain.watch;

/**
 * A child JVM of {@link TrusteeKilledProcessOnVerbsTest}: node {@code nodeId} of {@code size} processes on one
 * device, every one a memory and a compute node. Each node runs a {@link Trustee} on its own thread that owns
 * one counter ({@link Delegated#oneCell}), publishes its pointer in a directory on node 0, and runs
 * {@value #WORKERS} client threads that apply fetch-and-add of 1 or read to every node's counter in turn
 * (seeded random choice), each through its own compute thread. Every call is journaled
 * ({@link HistoryJournal}, {@code counter-<trustee>-<nodeId>.journal}, as {@link CounterSpec} operations):
 * the invocation before the call, the response after it; a call that threw a typed error is left pending
 * (it may have run), except one invoked on the dead trustee after the kill, which is voided (no trustee ran
 * it). A client's later calls to a trustee after one left pending there are journaled as another logical
 * thread ({@code index + WORKERS * k} after {@code k} pending calls), since a history's thread has at most
 * one operation in flight, and a pending one stays in flight for good.
 *
 * <p>The last node is the victim, which the test kills with {@code SIGKILL} while one of its clients is in
 * the middle of a call: its trustee dies with it, with the live clients' requests in its memory, and its
 * clients die with requests in the live trustees' slots and responses on their way to its memory. Its clients
 * run until killed (or {@link #RUN_BOUND}), marking in the file {@value #IN_FLIGHT} (one word per client)
 * whether a call is in flight; its first client creates {@code ready} after {@value #READY_OPS} calls.
 *
 * <p>The live clients make {@value #BEFORE} calls alongside the victim, any of which may end in a typed error
 * when it went to the victim's trustee, then wait for the file {@code killed}; then each completes
 * {@value #AFTER} more calls on every live trustee, none of which may fail, and makes {@value #DEAD_CALLS}
 * calls to the dead trustee, each of which must end in a typed {@link RemusException} within
 * {@link #CALL_BOUND} (a watchdog fails the process otherwise). Each prints a {@code WORKER} line of
 * {@code key=value} pairs and creates {@code done-<nodeId>}. Node 0 then, once node 1 is done, reads every
 * live counter once more on one more client, journaled as process {@code size}, and creates {@code swept}, for
 * which the others wait before they leave. Leaving fails (the dead node never announces its shutdown); the
 * failure is printed as a {@code CLOSE} line and expected. Arguments: {@code fabric nodeId size basePort
 * directory}.
 */
public final class TrusteeKilledProcessMain {
    /** Client threads per process. */
    static final int WORKERS = 2;
    /** Calls of every live client before it waits for the kill. */
    static final int BEFORE = 15;
    /** Calls of the victim's first client before it creates {@code ready}. */
    static final int READY_OPS = 10;
    /** Completed calls of every live client on every live trustee after the kill. */
    static final int AFTER = 10;
    /** Calls of every live client to the dead trustee after the kill, each to end in a typed error. */
    static final int DEAD_CALLS = 3;
    /** The victim's file of one word per client: 1 while a call is in flight, else 0. */
    static final String IN_FLIGHT = "in-flight";
    /** Each call's timeout: a live trustee's answer takes seconds in an emulated guest beside other work. */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);
    /** The longest any live call may take: past it the process fails. */
    static final Duration CALL_BOUND = CALL_TIMEOUT.multipliedBy(3);
    private static final Duration SHUTDOWN = Duration.ofSeconds(15);
    private static final Duration RUN_BOUND = Duration.ofMinutes(5);
    private static final Duration CONNECT = Duration.ofMinutes(4);
    /** Request slots per client: one call at a time each. */
    private static final int SLOTS = 1;

    private TrusteeKilledProcessMain() {
    }

    /** @return the journal file of the calls of process {@code process} on the counter of trustee {@code trustee} */
    static String journal(int trustee, int process) {
        return "counter-" + trustee + "-" + process + ".journal";
    }

    /** @param args fabric ({@link ProcessFabric#parse}), node id, size, base port, directory */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Path dir = Path.of(args[4]);
        boolean victim = nodeId == size - 1;
        progress("joining node=" + nodeId);
        ClusterConfig config = ClusterProcess.builder(nodeId, fabric.hosts(size), basePort)
                .memoryNodes(new NodeRange(0, size - 1)).segmentSize(1 << 20).threadsPerNode(WORKERS + 3)
                .operationTimeout(Duration.ofSeconds(20)).build();
        RemusCluster cluster = fabric.builder(config, CONNECT)
                .shutdownTimeout(SHUTDOWN).join();
        progress("joined node=" + nodeId);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        List<HistoryJournal> journals = new ArrayList<>();
        for (int t = 0; t < size; t++) {
            journals.add(HistoryJournal.create(dir.resolve(journal(t, nodeId)), HistoryClock.EPOCH_MICROS, nodeId));
        }
        AtomicBoolean stopServing = new AtomicBoolean();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        Thread trusteeThread = null;
        try {
            ComputeThread main = cluster.computeThread();
            ClusterBarrier barrier = ClusterBarrier.ofComputeNodes(main, RUN_BOUND);
            Root root = new Root(main);
            if (nodeId == 0) {
                long directory = main.allocator().allocate(8L * size, 0);
                for (int t = 0; t < size; t++) {
                    main.write(directory + 8L * t, 0);
                }
                root.set(directory);
            }
            barrier.await();
            long directory = root.get();
            CompletableFuture<Long> published = new CompletableFuture<>();
            int clients = size * WORKERS + 1;
            trusteeThread = daemon(() -> serve(cluster, clients, directory + 8L * nodeId, published, stopServing, failures),
                    "trustee@node" + nodeId);
            published.get(RUN_BOUND.toNanos(), TimeUnit.NANOSECONDS);
            barrier.await();
            long[] trustees = new long[size];
            for (int t = 0; t < size; t++) {
                trustees[t] = main.read(directory + 8L * t);
            }
            progress("trustees found " + Arrays.toString(trustees));
            MemorySegment inFlight = victim ? mapInFlight(dir.resolve(IN_FLIGHT), WORKERS) : null;
            AtomicLongArray callStarted = new AtomicLongArray(WORKERS + 1);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                Client client = new Client(nodeId, w, victim, dir, trustees, journals, inFlight, callStarted);
                threads.add(daemon(() -> {
                    try (ComputeThread ct = cluster.node().newComputeThread()) {
                        lines.add(client.run(ct));
                    }
                }, failures, "client-" + w + "@node" + nodeId));
            }
            watch(threads, callStarted, failures, CALL_BOUND, RUN_BOUND);
            for (HistoryJournal j : journals) {
                j.close();
            }
            Files.createFile(dir.resolve("done-" + nodeId));
            progress("calls done");
            if (nodeId == 0) {
                awaitFile(dir.resolve("done-" + (size - 2)), RUN_BOUND);
                Thread sweeper = daemon(() -> {
                    try (ComputeThread ct = cluster.node().newComputeThread()) {
                        lines.add(sweep(ct, trustees, dir, size, callStarted));
                    }
                }, failures, "sweep@node0");
                watch(List.of(sweeper), callStarted, failures, CALL_BOUND, RUN_BOUND);
                Files.createFile(dir.resolve("swept"));
            } else {
                awaitFile(dir.resolve("swept"), RUN_BOUND);
            }
        } finally {
            stopServing.set(true);
            if (trusteeThread != null) {
                trusteeThread.join(RUN_BOUND.toMillis());
            }
            try {
                cluster.close();
            } catch (RemusException e) {
                lines.add("CLOSE " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        if (!failures.isEmpty()) {
            failures.getFirst().printStackTrace(System.out);
            halt(failures.getFirst().toString());
        }
        lines.forEach(System.out::println);
        System.out.flush();
        System.exit(0);
    }

    /**
     * The trustee's thread: creates the trustee with one counter, publishes its pointer at {@code slot} of the
     * directory, and serves until told to stop. A pass that throws fails the process: a dead client must not
     * stop a live trustee.
     */
    private static void serve(RemusCluster cluster, int clients, long slot, CompletableFuture<Long> published,
                              AtomicBoolean stop, List<Throwable> failures) {
        try (ComputeThread ct = cluster.node().newComputeThread();
             Trustee<Delegated.Cell> trustee = Delegated.oneCell(Trustee.create(ct, clients, SLOTS))) {
            ct.write(slot, trustee.ptr());
            published.complete(trustee.ptr());
            long served = 0;
            while (!stop.get()) {
                int n = trustee.serveOnce();
                served += n;
                if (n == 0) {
                    Thread.yield();
                }
            }
            progress("trustee served " + served);
        } catch (Throwable e) {
            published.completeExceptionally(e);
            failures.add(e);
            synchronized (System.out) {
                System.out.println("the trustee failed:");
                e.printStackTrace(System.out);
                System.out.flush();
            }
        }
    }

    /** One client thread's calls, before and after the kill. */
    private static final class Client {
        private final int nodeId;
        private final int index;
        private final boolean victim;
        private final Path dir;
        private final long[] trusteePtrs;
        private final List<HistoryJournal> journals;
        private final MemorySegment inFlight;
        private final AtomicLongArray callStarted;
        /** Per trustee: how many of this client's calls to it were left pending, which picks its logical thread. */
        private final int[] pendingCalls;

        Client(int nodeId, int index, boolean victim, Path dir, long[] trusteePtrs, List<HistoryJournal> journals,
               MemorySegment inFlight, AtomicLongArray callStarted) {
            this.nodeId = nodeId;
            this.index = index;
            this.victim = victim;
            this.dir = dir;
            this.trusteePtrs = trusteePtrs;
            this.journals = journals;
            this.inFlight = inFlight;
            this.callStarted = callStarted;
            this.pendingCalls = new int[trusteePtrs.length];
        }

        String run(ComputeThread ct) throws InterruptedException, IOException {
            int size = trusteePtrs.length;
            int dead = size - 1;
            List<Trust<Delegated.Cell>> trusts = new ArrayList<>();
            for (long ptr : trusteePtrs) {
                trusts.add(TrusteeClient.connect(ct, ptr).trust(0));
            }
            progress("client " + index + " connected");
            SplittableRandom rnd = new SplittableRandom(nodeId * 1_000_003L + index);
            long typedBefore = 0;
            if (victim) {
                long deadline = System.nanoTime() + RUN_BOUND.toNanos();
                for (long i = 0; System.nanoTime() - deadline < 0; i++) {
                    int t = (int) (i % size);
                    if (call(trusts.get(t), t, rnd, false) == Outcome.TYPED_ERROR) {
                        typedBefore++;
                    }
                    if (index == 0 && i + 1 == READY_OPS) {
                        Files.createFile(dir.resolve("ready"));
                    }
                }
                return "WORKER victim node=" + nodeId + " index=" + index + " ran out of time";
            }
            for (int i = 0; i < BEFORE; i++) {
                int t = i % size;
                Outcome o = call(trusts.get(t), t, rnd, false);
                if (o == Outcome.TYPED_ERROR) {
                    if (t != dead) {
                        throw new AssertionError("a call to live trustee " + t + " failed before the kill");
                    }
                    typedBefore++;
                }
            }
            awaitFile(dir.resolve("killed"), RUN_BOUND);
            long afterKill = 0;
            for (int t = 0; t < dead; t++) {
                for (int i = 0; i < AFTER; i++) {
                    if (call(trusts.get(t), t, rnd, false) != Outcome.DONE) {
                        throw new AssertionError("a call to live trustee " + t + " failed after the kill");
                    }
                    afterKill++;
                }
            }
            long deadTyped = 0;
            for (int i = 0; i < DEAD_CALLS; i++) {
                if (call(trusts.get(dead), dead, rnd, true) == Outcome.TYPED_ERROR) {
                    deadTyped++;
                }
            }
            return "WORKER node=" + nodeId + " index=" + index + " typedBefore=" + typedBefore + " afterKill=" + afterKill
                    + " deadTyped=" + deadTyped;
        }

        private enum Outcome { DONE, TYPED_ERROR }

        /**
         * One journaled call to trustee {@code t}: a fetch-and-add of 1 (three in four) or a read.
         *
         * @param afterDeath the call goes to a trustee known dead: a typed error voids it
         */
        private Outcome call(Trust<Delegated.Cell> trust, int t, SplittableRandom rnd, boolean afterDeath) throws IOException {
            HistoryJournal j = journals.get(t);
            boolean add = rnd.nextInt(4) != 0;
            int thread = index + WORKERS * pendingCalls[t];
            int op = add ? j.invoke(thread, CounterSpec.FETCH_AND_ADD, 1) : j.invoke(thread, CounterSpec.READ);
            mark(1);
            try {
                long r = add ? trust.apply(Delegated.FETCH_AND_ADD, 1, CALL_TIMEOUT) : trust.apply(Delegated.READ, 0, CALL_TIMEOUT);
                mark(0);
                j.respond(op, r);
                return Outcome.DONE;
            } catch (RemusException e) {
                mark(0);
                if (afterDeath) {
                    j.voided(op);
                } else {
                    pendingCalls[t]++;
                }
                progress("client " + index + " on trustee " + t + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
                return Outcome.TYPED_ERROR;
            }
        }

        private void mark(long busy) {
            callStarted.set(index, busy == 0 ? 0 : System.nanoTime());
            if (inFlight != null) {
                inFlight.set(ValueLayout.JAVA_LONG, 8L * index, busy);
            }
        }
    }

    /** Node 0's reads of every live counter after the live clients, journaled as client 0 of process {@code process}. */
    private static String sweep(ComputeThread ct, long[] trusteePtrs, Path dir, int process, AtomicLongArray callStarted) {
        StringBuilder line = new StringBuilder("SWEEP");
        for (int t = 0; t < trusteePtrs.length - 1; t++) {
            try (HistoryJournal j = HistoryJournal.create(dir.resolve(journal(t, process)), HistoryClock.EPOCH_MICROS, process)) {
                Trust<Delegated.Cell> trust = TrusteeClient.connect(ct, trusteePtrs[t]).trust(0);
                int op = j.invoke(0, CounterSpec.READ);
                callStarted.set(WORKERS, System.nanoTime());
                long v = trust.apply(Delegated.READ, 0, CALL_TIMEOUT);
                callStarted.set(WORKERS, 0);
                j.respond(op, v);
                line.append(" counter").append(t).append('=').append(v);
            }
        }
        return line.toString();
    }

    /** A body that may throw, run on a daemon thread whose failure is collected. */
    private interface Body {
        void run() throws Exception;
    }

    private static Thread daemon(Body body, List<Throwable> failures, String name) {
        return daemon(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(e);
                synchronized (System.out) {
                    e.printStackTrace(System.out);
                    System.out.flush();
                }
            }
        }, name);
    }

    private static Thread daemon(Runnable body, String name) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
