package io.remus.ds.object;

import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.HistoryFiles;
import io.remus.check.spec.CounterSpec;
import io.remus.check.spec.MaxRegisterSpec;
import io.remus.check.spec.RegisterSpec;
import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.Root;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.RemusException;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.testing.ChildMain;
import io.remus.ds.testing.Contention;
import io.remus.ds.testing.Counts;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * A child JVM of {@link ObjectProcessesOnVerbsTest}: node {@code nodeId} of {@code size} processes on one
 * device, every one a compute node and all but the last (the victim) memory nodes. Node 0 creates one of each wait-free object on itself
 * ({@link Target}) and publishes them through the root; then every process runs {@link #WORKERS}
 * threads, each with its own compute thread and {@link EpochReclaimer}, doing a seeded random mix of
 * the objects' operations. Each thread records its operations per object into its process's
 * {@link History} ({@link HistoryClock#EPOCH_MICROS}: one clock for the processes of one host) and
 * measures each call with its compute thread's counters against the object's stated per-call bound.
 *
 * <p>The last node is the victim. It holds no memory: a stopped process still has its registered memory
 * served by the kernel on queue pairs already connected, but a peer's first operation on its memory (an
 * epoch reclaimer's pass reads every memory node's table) needs a new connection, which the stopped
 * process cannot accept. Its threads operate without pause until {@code resumed} exists, and its
 * first thread creates {@code ready} after {@link #READY_OPS}, for the test to stop the process
 * ({@code SIGSTOP}). Each victim thread marks in the shared file {@code in-flight} (one word per
 * thread, {@link #IN_FLIGHT}) whether it is between an operation's invocation and its response, so
 * that the test, reading the file while the process is stopped, knows whether the stop caught an
 * operation in the middle. The live nodes' threads run {@link #OPS} operations and wait for {@code frozen}; then
 * each runs exactly {@link #WHILE_FROZEN} more, the last of a process creates {@code live-<nodeId>}, and
 * they wait, reclaiming, for {@code resumed}. Every thread stops once it ran {@link #OPS} operations in
 * all and {@link #AFTER_RESUME} after it saw {@code resumed}.
 *
 * <p>Each process then writes its histories to {@code <object>-<nodeId>.history} in the directory,
 * creates {@code done-<nodeId>} and prints one {@code WORKER} line of {@code key=value} pairs per thread;
 * node 0 waits for every {@code done} file and prints the final contents of the queue and the stack in a
 * {@code CONTENTS} line. Long waits are on files, with sleeps: the guest's CPUs are few and slow.
 * Arguments: {@code fabric nodeId size basePort directory}, the fabric a device name or {@code shm:DIR}
 * ({@link ProcessFabric}).
 */
public final class ObjectProcessMain {
    /** Operating threads per process. */
    static final int WORKERS = 2;
    /** The node whose objects the processes share. */
    static final int HOME = 0;
    /** Operations of every thread before the stop, at least. */
    static final int OPS = 60;
    /** Operations of the victim's first thread before it creates {@code ready}. */
    static final int READY_OPS = 10;
    /** Operations of each live thread once it saw {@code frozen}, before it waits for {@code resumed}. */
    static final int WHILE_FROZEN = 30;
    /** Operations of each thread after it saw {@code resumed}. */
    static final int AFTER_RESUME = 10;
    /** Element capacity of the queue and the stack. */
    static final int ELEMENTS = 4;
    /** Bytes of the register's values: two words. */
    static final int REGISTER_BYTES = 16;
    /** The file, mapped by the victim, of one word per thread: 1 while an operation is in flight, else 0. */
    static final String IN_FLIGHT = "in-flight";
    /** The reclaimers' lease: the bound is stated for calls of a thread whose lease holds. */
    static final Duration LEASE = Duration.ofSeconds(2);
    /**
     * The library's defaults but for a short lease: no byte limit, so that no call waits for the stopped process
     * (the objects' wait-freedom as their Javadoc states it, with the defaults); garbage stays bounded by the
     * lease and the passes.
     */
    private static final EpochOptions EPOCH = EpochOptions.defaults().withLease(LEASE);
    private static final Duration RUN_BOUND = Duration.ofMinutes(4);
    private static final Duration CONNECT = Duration.ofMinutes(4);
    private static final long POLL_MILLIS = 20;

    /** The objects, in the order of their pointers in the directory. */
    enum Target {
        COUNTER, MAX_REGISTER, REGISTER, QUEUE, STACK;

        String file(int nodeId) {
            return name().toLowerCase() + "-" + nodeId + ".history";
        }
    }

    private ObjectProcessMain() {
    }

    /** Every handle of every object: one per thread of every process, and the creator's. */
    static int capacity(int size) {
        return size * WORKERS + 1;
    }

    /** @param args fabric ({@link ProcessFabric#parse}), node id, size, base port, directory */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Path dir = Path.of(args[4]);
        ChildMain.progress("joining node=" + nodeId);
        ClusterConfig config = ClusterProcess.builder(nodeId, fabric.hosts(size), basePort)
                .memoryNodes(new NodeRange(0, size - 2)).segmentSize(1 << 20).threadsPerNode(WORKERS + 2).operationTimeout(Duration.ofSeconds(60)).build();
        RemusCluster cluster = fabric.builder(config, CONNECT)
                .shutdownTimeout(Duration.ofMinutes(2)).join();
        ChildMain.progress("joined node=" + nodeId);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        try {
            ComputeThread main = cluster.computeThread();
            ClusterBarrier barrier = ClusterBarrier.ofComputeNodes(main, RUN_BOUND);
            NeverReclaimer mainReclaimer = new NeverReclaimer(main);
            Root root = new Root(main);
            WaitFreeQueue queue = null;
            WaitFreeStack stack = null;
            if (nodeId == 0) {
                int c = capacity(size);
                queue = WaitFreeQueue.create(main, mainReclaimer, HOME, c, ELEMENTS);
                stack = WaitFreeStack.create(main, mainReclaimer, HOME, c, ELEMENTS);
                long[] ptrs = {RemoteCounter.create(main, HOME, 0).ptr(), RemoteMaxRegister.create(main, HOME, c, 0).ptr(),
                    RemoteRegister.create(main, mainReclaimer, HOME, new byte[REGISTER_BYTES]).ptr(), queue.ptr(), stack.ptr()};
                long directory = main.allocator().allocate(8L * ptrs.length, HOME);
                for (int i = 0; i < ptrs.length; i++) {
                    main.write(directory + 8L * i, ptrs[i]);
                }
                root.set(directory);
            }
            barrier.await();
            ChildMain.progress("objects created");
            long directory = root.get();
            long[] ptrs = new long[Target.values().length];
            for (int i = 0; i < ptrs.length; i++) {
                ptrs[i] = main.read(directory + 8L * i);
            }
            Map<Target, History> histories = new EnumMap<>(Target.class);
            for (Target target : Target.values()) {
                histories.put(target, new History(HistoryClock.EPOCH_MICROS, nodeId));
            }
            boolean victim = nodeId == size - 1;
            MemorySegment inFlight = victim ? ChildMain.mapInFlight(dir.resolve(IN_FLIGHT), WORKERS) : null;
            AtomicInteger frozenDone = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int w = 0; w < WORKERS; w++) {
                Worker worker = new Worker(nodeId, w, size, victim, dir, ptrs, histories, frozenDone, inFlight);
                Thread t = new Thread(() -> {
                    try (ComputeThread ct = cluster.node().newComputeThread()) {
                        lines.add(worker.run(ct));
                    } catch (Throwable e) {
                        failures.add(e);
                        synchronized (System.out) {
                            e.printStackTrace(System.out);
                            System.out.flush();
                        }
                    }
                }, "worker-" + w + "@node" + nodeId);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join(RUN_BOUND.toMillis());
            }
            if (!failures.isEmpty() || threads.stream().anyMatch(Thread::isAlive)) {
                if (!failures.isEmpty()) {
                    failures.getFirst().printStackTrace(System.out);
                }
                System.out.println("FAILED " + (failures.isEmpty() ? "a worker still ran after " + RUN_BOUND : failures.getFirst()));
                System.out.flush();
                Runtime.getRuntime().halt(1);
            }
            for (Target target : Target.values()) {
                HistoryFiles.write(histories.get(target), dir.resolve(target.file(nodeId)));
            }
            Files.createFile(dir.resolve("done-" + nodeId));
            ChildMain.progress("histories written");
            if (nodeId == 0) {
                awaitDone(dir, size);
                lines.add("CONTENTS queue=" + words(queue.contents()) + " stack=" + words(stack.contents()));
            }
        } finally {
            try {
                cluster.close();
            } catch (RemusException e) {
                lines.add("CLOSE " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        lines.forEach(System.out::println);
        System.out.flush();
        System.exit(0);
    }

    /** Waits for every process's {@code done} file: a file, not a barrier, so that waiting takes no CPU from the others. */
    private static void awaitDone(Path dir, int size) throws InterruptedException {
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        for (int n = 0; n < size; n++) {
            ChildMain.awaitFile(dir.resolve("done-" + n), Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
    }

    private static String words(long[] w) {
        return Arrays.stream(w).mapToObj(Long::toString).collect(Collectors.joining(","));
    }

    /** One operating thread: its handles, its recorders, its tallies of the bound. */
    private static final class Worker {
        private final int nodeId;
        private final int index;
        private final int gid;
        private final int size;
        private final boolean victim;
        private final Path dir;
        private final long[] ptrs;
        private final Map<Target, History> histories;
        private final AtomicInteger frozenDone;
        private final MemorySegment inFlight;
        private final SplittableRandom rnd;
        private final MemorySegment value = MemorySegment.ofArray(new byte[REGISTER_BYTES]);

        private long checked;
        private long excluded;
        private long violations;
        private String firstViolation = "none";
        private boolean whileFrozen;
        private long checkedWhileFrozen;
        private long violationsWhileFrozen;

        Worker(int nodeId, int index, int size, boolean victim, Path dir, long[] ptrs, Map<Target, History> histories,
               AtomicInteger frozenDone, MemorySegment inFlight) {
            this.nodeId = nodeId;
            this.index = index;
            this.gid = nodeId * WORKERS + index;
            this.size = size;
            this.victim = victim;
            this.dir = dir;
            this.ptrs = ptrs;
            this.histories = histories;
            this.frozenDone = frozenDone;
            this.inFlight = inFlight;
            this.rnd = new SplittableRandom(1_000_003L * (gid + 1));
        }

        String run(ComputeThread t) throws IOException, InterruptedException {
            EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), EPOCH);
            Handles h = new Handles(t, reclaimer, ptrs);
            Map<Target, History.Recorder> recorders = new EnumMap<>(Target.class);
            for (Target target : Target.values()) {
                recorders.put(target, histories.get(target).recorder(index));
            }
            ChildMain.progress("worker " + index + " attached");
            Path frozenFile = dir.resolve("frozen");
            Path resumedFile = dir.resolve("resumed");
            long deadline = System.nanoTime() + RUN_BOUND.toNanos();
            boolean frozen = false;
            boolean resumed = false;
            int frozenOps = 0;
            int resumedOps = 0;
            long advancesAtFreeze = 0;
            long advancesWhileFrozen = 0;
            int i = 0;
            while (true) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("node " + nodeId + " worker " + index + " ran past " + RUN_BOUND + " after " + i
                            + " operations (frozen seen " + frozen + ", resumed seen " + resumed + ")");
                }
                if (!victim && !frozen && Files.exists(frozenFile)) {
                    frozen = true;
                    advancesAtFreeze = reclaimer.advances();
                }
                if ((frozen || victim) && !resumed && Files.exists(resumedFile)) {
                    resumed = true;
                    advancesWhileFrozen = reclaimer.advances() - advancesAtFreeze;
                }
                if (i >= OPS && resumed && resumedOps >= AFTER_RESUME) {
                    break;
                }
                if (!victim && (frozen ? !resumed && frozenOps >= WHILE_FROZEN : i >= OPS)) {
                    reclaimer.reclaim();
                    Thread.sleep(POLL_MILLIS);
                    continue;
                }
                if (!victim) {
                    Contention.maybeYield();
                }
                whileFrozen = frozen && !resumed;
                operate(h, recorders, i);
                i++;
                if (whileFrozen && ++frozenOps == WHILE_FROZEN && frozenDone.incrementAndGet() == WORKERS) {
                    Files.createFile(dir.resolve("live-" + nodeId));
                }
                if (resumed) {
                    resumedOps++;
                }
                if (i % 20 == 0) {
                    ChildMain.progress("worker " + index + " at " + i + " operations");
                }
                if (victim && index == 0 && i == READY_OPS) {
                    try {
                        Files.createFile(dir.resolve("ready"));
                    } catch (FileAlreadyExistsException ignored) {
                        // a second run of the same directory: the signal is the same
                    }
                }
            }
            String line = "WORKER node=" + nodeId + " worker=" + index + " victim=" + victim + " ops=" + i + " checked=" + checked
                    + " excluded=" + excluded + " violations=" + violations + " whileFrozen=" + frozenOps
                    + " checkedWhileFrozen=" + checkedWhileFrozen + " violationsWhileFrozen=" + violationsWhileFrozen
                    + " passes=" + reclaimer.passes() + " advancesWhileFrozen=" + advancesWhileFrozen
                    + " limitTimeouts=" + reclaimer.limitTimeouts() + " firstViolation=" + firstViolation.replace(' ', '_');
            reclaimer.close();
            return line;
        }

        /** One random operation on one random object, recorded and measured. */
        private void operate(Handles h, Map<Target, History.Recorder> recorders, int i) {
            Target target = Target.values()[rnd.nextInt(Target.values().length)];
            History.Recorder r = recorders.get(target);
            boolean update = rnd.nextBoolean();
            ComputeThread t = h.thread;
            long passes = h.reclaimer.passes();
            long started = System.nanoTime();
            Counts before = Counts.of(t);
            String violation;
            switch (target) {
                case COUNTER -> {
                    if (update) {
                        long delta = 1 + rnd.nextInt(3);
                        int op = invoke(r, CounterSpec.FETCH_AND_ADD, delta);
                        respond(r, op, h.counter.fetchAndAdd(delta));
                        Counts w = before.since(t);
                        violation = w.equals(new Counts(1, 1, 0, 0, 1, 8, 0)) ? null
                                : "fetchAndAdd: one fetch-and-add and the handles word's READ, one round trip " + w;
                    } else {
                        int op = invoke(r, CounterSpec.READ);
                        respond(r, op, h.counter.read());
                        violation = oneRead("counter read", before.since(t));
                    }
                }
                case MAX_REGISTER -> {
                    if (update) {
                        long v = (4L * i + rnd.nextInt(12)) * 64 + gid + 1;
                        int op = invoke(r, MaxRegisterSpec.WRITE_MAX, v);
                        h.max.writeMax(v);
                        respond(r, op);
                        Counts w = before.since(t);
                        int n = size * WORKERS;
                        int c = capacity(size);
                        violation = w.roundTrips() <= 1 + n && w.compareAndSwaps() <= 1 + n && w.reads() <= c + 1
                                && w.writes() == 0 && w.fetchAndAdds() == 0 ? null
                                : "writeMax: at most 1 + n = " + (1 + n) + " round trips and compare-and-swaps, " + (c + 1) + " READs " + w;
                    } else {
                        int op = invoke(r, MaxRegisterSpec.READ);
                        respond(r, op, h.max.read());
                        violation = oneRead("max register read", before.since(t));
                    }
                }
                case REGISTER -> {
                    if (update) {
                        long first = ((gid + 1L) << 32) | (i + 1);
                        long second = ~first;
                        value.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, first);
                        value.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, second);
                        long allocRt = h.register.allocatorRoundTrips();
                        long allocCas = h.register.allocatorCompareAndSwaps();
                        int op = invoke(r, RegisterSpec.WRITE, first, second);
                        h.register.write(value);
                        respond(r, op);
                        Counts w = before.since(t);
                        long ownRt = w.roundTrips() - (h.register.allocatorRoundTrips() - allocRt);
                        long ownCas = w.compareAndSwaps() - (h.register.allocatorCompareAndSwaps() - allocCas);
                        violation = ownRt >= 1 && ownRt <= 2 && ownCas >= 1 && ownCas <= 2 ? null
                                : "register write: 1 or 2 round trips and compare-and-swaps besides the allocator " + w;
                    } else {
                        int op = invoke(r, RegisterSpec.READ);
                        h.register.read(value);
                        respond(r, op, value.get(ValueLayout.JAVA_LONG_UNALIGNED, 0), value.get(ValueLayout.JAVA_LONG_UNALIGNED, 8));
                        Counts w = before.since(t);
                        violation = w.roundTrips() <= 2 && w.reads() <= 2 && w.operations() == w.reads() ? null
                                : "register read: two READs " + w;
                    }
                }
                case QUEUE, STACK -> {
                    WaitFreeContainer box = target == Target.QUEUE ? h.queue : h.stack;
                    WaitFreeContainerBoundTest.Call call;
                    if (update) {
                        long v = (gid + 1L) * 1_000_000L + i;
                        int op = invoke(r, BoundedContainerSpec.PUT, v);
                        boolean[] ok = new boolean[1];
                        call = WaitFreeContainerBoundTest.measure(box, t, () -> ok[0] = box.put(v));
                        respond(r, op, ok[0] ? 1 : 0);
                    } else {
                        int op = invoke(r, BoundedContainerSpec.TAKE);
                        boolean[] ok = new boolean[1];
                        call = WaitFreeContainerBoundTest.measure(box, t, () -> ok[0] = box.take());
                        if (ok[0]) {
                            respond(r, op, box.taken());
                        } else {
                            respond(r, op);
                        }
                    }
                    violation = WaitFreeContainerBoundTest.violation(call, box.object().blockBytes(), capacity(size));
                }
                default -> throw new IllegalStateException(target.toString());
            }
            long took = System.nanoTime() - started;
            if (h.reclaimer.passes() != passes || took >= LEASE.toNanos()) {
                excluded++;
                return;
            }
            checked++;
            if (whileFrozen) {
                checkedWhileFrozen++;
            }
            if (violation != null) {
                violations++;
                if (whileFrozen) {
                    violationsWhileFrozen++;
                }
                if (violations == 1) {
                    firstViolation = target + " call " + i + ": " + violation;
                }
            }
        }

        /** Records the invocation, then marks this thread's operation in flight (the victim's). */
        private int invoke(History.Recorder r, String kind, long... arguments) {
            int op = switch (arguments.length) {
                case 0 -> r.invoke(kind);
                case 1 -> r.invoke(kind, arguments[0]);
                default -> r.invoke(kind, arguments[0], arguments[1]);
            };
            if (inFlight != null) {
                ValueLayout.JAVA_LONG.varHandle().setVolatile(inFlight, 8L * index, 1L);
            }
            return op;
        }

        /** Marks this thread's operation done (the victim's), then records the response. */
        private void respond(History.Recorder r, int op, long... result) {
            if (inFlight != null) {
                ValueLayout.JAVA_LONG.varHandle().setVolatile(inFlight, 8L * index, 0L);
            }
            switch (result.length) {
                case 0 -> r.respond(op);
                case 1 -> r.respond(op, result[0]);
                default -> r.respond(op, result[0], result[1]);
            }
        }

        private static String oneRead(String what, Counts w) {
            return w.roundTrips() <= 1 && w.reads() <= 1 && w.operations() == w.reads() ? null : what + ": one READ " + w;
        }
    }

    /** One thread's handles of the objects. */
    private static final class Handles {
        final ComputeThread thread;
        final EpochReclaimer reclaimer;
        final RemoteCounter counter;
        final RemoteMaxRegister max;
        final RemoteRegister register;
        final WaitFreeContainer queue;
        final WaitFreeContainer stack;

        Handles(ComputeThread t, EpochReclaimer r, long[] ptrs) {
            thread = t;
            reclaimer = r;
            counter = RemoteCounter.attach(t, ptrs[Target.COUNTER.ordinal()]);
            max = RemoteMaxRegister.attach(t, ptrs[Target.MAX_REGISTER.ordinal()]);
            register = RemoteRegister.attach(t, r, ptrs[Target.REGISTER.ordinal()]);
            queue = WaitFreeContainer.of(WaitFreeQueue.attach(t, r, ptrs[Target.QUEUE.ordinal()]));
            stack = WaitFreeContainer.of(WaitFreeStack.attach(t, r, ptrs[Target.STACK.ordinal()]));
        }
    }
}
