package io.remus.ds.cluster;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.LockTimeoutException;
import io.remus.alock.kind.LockKind;
import io.remus.check.HistoryClock;
import io.remus.check.HistoryJournal;
import io.remus.check.spec.MapSpec;
import io.remus.check.spec.SetSpec;
import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.Root;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.RemusException;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.object.BoundedContainerSpec;
import io.remus.ds.queue.MpmcCrashTolerantQueue;
import io.remus.ds.queue.MpmcScqQueue;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.set.LazyListSet;
import io.remus.ds.set.LockFreeListSet;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;

import static io.remus.ds.testing.ChildMain.awaitFile;
import static io.remus.ds.testing.ChildMain.halt;
import static io.remus.ds.testing.ChildMain.mapInFlight;
import static io.remus.ds.testing.ChildMain.progress;
import static io.remus.ds.testing.ChildMain.watch;

/**
 * A child JVM of {@link StructuresKilledProcessOnVerbsTest}: node {@code nodeId} of {@code size} processes on
 * one device, every one a compute node and all but the last memory nodes. Node 0 creates the structures
 * ({@link Structure}): a {@link LockFreeListSet} on node 0, a {@link LazyListSet} of spin locks and a
 * {@link RemoteHashMap} on node 1 (the last memory node), an {@link MpmcCrashTolerantQueue} of {@value #CAPACITY}
 * words and {@value #SPARE} spare cells on node 0, and an {@link MpmcScqQueue} of {@value #CAPACITY} words on node 0, and
 * publishes them through the root. Every process runs {@value #WORKERS} threads, each
 * with its own compute thread and {@link EpochReclaimer} (lease {@link #LEASE}), doing seeded random
 * operations over keys 1..{@value #KEYS}. Every call is journaled ({@link HistoryJournal}, one file per
 * structure and process, {@code <structure>-<nodeId>.journal}): its invocation line written before it
 * starts, its response after it returned; a call that ended with a typed timeout that promises no effect
 * ({@link LockTimeoutException} of the lazy list) is journaled
 * as voided and counted.
 *
 * <p>The last node is the victim, which the test kills with {@code SIGKILL} in the middle of an operation.
 * It holds no memory: a dead process's registered memory is gone, so a structure, an epoch table or an
 * allocator segment on it would be lost with it, and even a stopped one cannot accept the new connection a
 * peer's first operation on its memory needs. Its threads operate without pause until killed (or until
 * {@link #RUN_BOUND}); its first thread creates {@code ready} after {@value #READY_OPS} operations. Each
 * victim thread marks in the shared file {@value #IN_FLIGHT} (one word per thread) whether it is between
 * an operation's journaled invocation and its journaled response, so that the test, reading the file while
 * the process is stopped, kills it only when an operation is caught in the middle.
 *
 * <p>The live nodes' threads run {@value #BEFORE} operations alongside the victim, then wait (reclaiming)
 * for the file {@code killed}; then each completes {@value #AFTER} more operations on every structure
 * (round robin; voided calls do not count, at most {@value #MAX_TRIES} calls per structure), then runs
 * reclaimer passes until its reclaimer advanced the global epoch at least once since the kill (at most
 * {@link #ADVANCE_BOUND}): the dead process's reclaimer slot, in a guard or not, must not stall the epoch.
 * A watchdog fails the process when any live call runs longer than {@link #CALL_BOUND}. Each prints one
 * {@code WORKER} line of {@code key=value} pairs and creates {@code done-<nodeId>}. Node 0 then, once node 1
 * is done, sweeps every structure on one more thread, journaled as process {@code size}: contains of every key in
 * both sets, get of every key in the map, and polls of each queue until it answers empty (a dead producer's
 * claimed ticket is poisoned after a poll's patience, as {@link MpmcCrashTolerantQueue} documents, or marked by
 * the poll of its ticket in {@link MpmcScqQueue}); prints
 * a {@code SWEEP} line and creates {@code swept}, for which node 1 waits before it leaves. Leaving, the memory
 * nodes' shutdown handshake waits for the dead compute node's announcement until {@link #SHUTDOWN} and
 * fails; that failure is printed as a {@code CLOSE} line and is expected. Arguments:
 * {@code fabric nodeId size basePort directory}.
 */
public final class StructuresKilledProcessMain {
    /** Operating threads per process. */
    static final int WORKERS = 2;
    /** The keys of the sets and the map. */
    static final int KEYS = 4;
    /** The queue's capacity. */
    static final int CAPACITY = 4;
    /** The queue's spare cells: more than the threads of all processes, so a full answer stays exact unless a claim is poisoned. */
    static final int SPARE = 8;
    /** Operations of every live thread before it waits for the kill. */
    static final int BEFORE = 20;
    /** Operations of the victim's first thread before it creates {@code ready}. */
    static final int READY_OPS = 10;
    /** Completed operations of every live thread on every structure after the kill. */
    static final int AFTER = 6;
    /** The most calls a live thread makes on one structure after the kill to complete {@value #AFTER}. */
    static final int MAX_TRIES = 5 * AFTER;
    /** The victim's file of one word per thread: 1 while an operation is in flight, else 0. */
    static final String IN_FLIGHT = "in-flight";
    /** The reclaimers' lease: how long a dead process's guard can hold the epoch back. */
    static final Duration LEASE = Duration.ofSeconds(2);
    /** The longest any live call may take: past it the process fails. */
    static final Duration CALL_BOUND = Duration.ofSeconds(30);
    /** The lazy list's acquire timeout and the queue's patience. */
    static final Duration PATIENCE = Duration.ofSeconds(1);
    /** How long a live thread runs reclaimer passes after its operations for an epoch advance. */
    static final Duration ADVANCE_BOUND = LEASE.multipliedBy(10);
    private static final Duration SHUTDOWN = Duration.ofSeconds(15);
    private static final int VALUE_BYTES = 16;
    private static final LockOptions LOCKS = LockOptions.defaults().withAcquireTimeout(PATIENCE);
    private static final EpochOptions EPOCH = EpochOptions.defaults().withLease(LEASE).withBytes(4096, 16384)
            .withLimitWait(Duration.ofSeconds(20));
    private static final Duration RUN_BOUND = Duration.ofMinutes(5);
    private static final Duration CONNECT = Duration.ofMinutes(4);
    private static final long POLL_MILLIS = 20;

    /** The structures, in the order of their pointers in the directory. */
    enum Structure {
        LOCK_FREE_LIST, LAZY_LIST, HASH_MAP, QUEUE, SCQ_QUEUE;

        String journal(int nodeId) {
            return name().toLowerCase().replace('_', '-') + "-" + nodeId + ".journal";
        }
    }

    private StructuresKilledProcessMain() {
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
                .memoryNodes(new NodeRange(0, size - 2)).segmentSize(1 << 20).threadsPerNode(WORKERS + 2)
                .operationTimeout(Duration.ofSeconds(20)).build();
        RemusCluster cluster = fabric.builder(config, CONNECT)
                .shutdownTimeout(SHUTDOWN).join();
        progress("joined node=" + nodeId);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        List<HistoryJournal> journals = new ArrayList<>();
        for (Structure s : Structure.values()) {
            journals.add(HistoryJournal.create(dir.resolve(s.journal(nodeId)), HistoryClock.EPOCH_MICROS, nodeId));
        }
        try {
            ComputeThread main = cluster.computeThread();
            ClusterBarrier barrier = ClusterBarrier.ofComputeNodes(main, RUN_BOUND);
            Root root = new Root(main);
            int lazyHome = size - 2;
            if (nodeId == 0) {
                NeverReclaimer r = new NeverReclaimer(main);
                long[] ptrs = {LockFreeListSet.create(main, r, 0).ptr(),
                    LazyListSet.create(new LockContext(main, LOCKS), r, LockKind.SPIN, lazyHome).ptr(),
                    RemoteHashMap.create(main, r, lazyHome, 4, VALUE_BYTES).ptr(), MpmcCrashTolerantQueue.create(main, CAPACITY, SPARE).ptr(),
                    MpmcScqQueue.create(main, CAPACITY).ptr()};
                long directory = main.allocator().allocate(8L * ptrs.length, 0);
                for (int i = 0; i < ptrs.length; i++) {
                    main.write(directory + 8L * i, ptrs[i]);
                }
                root.set(directory);
            }
            barrier.await();
            long directory = root.get();
            long[] ptrs = new long[Structure.values().length];
            for (int i = 0; i < ptrs.length; i++) {
                ptrs[i] = main.read(directory + 8L * i);
            }
            progress("structures found");
            MemorySegment inFlight = victim ? mapInFlight(dir.resolve(IN_FLIGHT), WORKERS) : null;
            AtomicLongArray callStarted = new AtomicLongArray(WORKERS + 1);
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int w = 0; w < WORKERS; w++) {
                Worker worker = new Worker(nodeId, w, victim, dir, ptrs, journals, inFlight, callStarted);
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
            watch(threads, callStarted, failures, CALL_BOUND, RUN_BOUND);
            for (HistoryJournal j : journals) {
                j.close();
            }
            Files.createFile(dir.resolve("done-" + nodeId));
            progress("operations done");
            if (nodeId == 0) {
                awaitFile(dir.resolve("done-" + (size - 2)), RUN_BOUND);
                Thread sweeper = new Thread(() -> {
                    try (ComputeThread ct = cluster.node().newComputeThread()) {
                        lines.add(sweep(ct, ptrs, dir, size, callStarted));
                    } catch (Throwable e) {
                        failures.add(e);
                        synchronized (System.out) {
                            e.printStackTrace(System.out);
                            System.out.flush();
                        }
                    }
                }, "sweep@node0");
                sweeper.setDaemon(true);
                sweeper.start();
                watch(List.of(sweeper), callStarted, failures, CALL_BOUND, RUN_BOUND);
                Files.createFile(dir.resolve("swept"));
            } else {
                awaitFile(dir.resolve("swept"), RUN_BOUND);
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

    /**
     * Node 0's sweep after the live workers: contains of every key in both sets, get of every key in the
     * map, then polls of each queue until empty, or {@value #CAPACITY} + 1 polls; all journaled
     * as thread {@value #WORKERS} of one more process, {@code process} (the number of nodes), in
     * {@code <structure>-<process>.journal}.
     */
    private static String sweep(ComputeThread t, long[] ptrs, Path dir, int process, AtomicLongArray callStarted) {
        List<HistoryJournal> journals = new ArrayList<>();
        for (Structure s : Structure.values()) {
            journals.add(HistoryJournal.create(dir.resolve(s.journal(process)), HistoryClock.EPOCH_MICROS, process));
        }
        StringBuilder line = new StringBuilder("SWEEP");
        try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), EPOCH);
             LockFreeListSet lockFree = LockFreeListSet.attach(t, reclaimer, ptrs[0]);
             LazyListSet lazy = LazyListSet.attach(new LockContext(t, LOCKS), reclaimer, ptrs[1]);
             RemoteHashMap map = RemoteHashMap.attach(t, reclaimer, ptrs[2]);
             MpmcCrashTolerantQueue queue = MpmcCrashTolerantQueue.attach(t, ptrs[3]);
             MpmcScqQueue scq = MpmcScqQueue.attach(t, ptrs[4])) {
            Calls calls = new Calls(journals, WORKERS, null, callStarted);
            for (long key = 1; key <= KEYS; key++) {
                long k = key;
                calls.call(Structure.LOCK_FREE_LIST, SetSpec.CONTAINS, new long[]{k}, () -> bool(lockFree.contains(k)));
                calls.call(Structure.LAZY_LIST, SetSpec.CONTAINS, new long[]{k}, () -> bool(lazy.contains(k)));
                calls.call(Structure.HASH_MAP, MapSpec.GET, new long[]{k}, () -> got(map.get(k)));
            }
            String drained = "full";
            for (int i = 0; i <= CAPACITY; i++) {
                long[] r = calls.call(Structure.QUEUE, BoundedContainerSpec.TAKE, new long[0], () -> polled(queue.poll(PATIENCE)));
                if (r.length == 0) {
                    drained = "empty";
                    break;
                }
            }
            String scqDrained = "full";
            for (int i = 0; i <= CAPACITY; i++) {
                long[] r = calls.call(Structure.SCQ_QUEUE, BoundedContainerSpec.TAKE, new long[0], () -> polled(scq.poll()));
                if (r.length == 0) {
                    scqDrained = "empty";
                    break;
                }
            }
            line.append(" queue=").append(drained).append(" poisoned=").append(queue.poisoned()).append(" scqQueue=").append(scqDrained)
                    .append(" scqRetakes=").append(scq.retakes()).append(" calls=").append(calls.completed);
        } finally {
            journals.forEach(HistoryJournal::close);
        }
        return line.toString();
    }

    private static long[] bool(boolean b) {
        return new long[]{b ? 1 : 0};
    }

    private static long[] got(byte[] v) {
        return v == null ? new long[]{0} : new long[]{1, wordOf(v)};
    }

    private static long[] polled(OptionalLong v) {
        return v.isPresent() ? new long[]{v.getAsLong()} : new long[0];
    }

    /** The word a value holds, or -1 when it is not one whole written value. */
    private static long wordOf(byte[] v) {
        ByteBuffer b = ByteBuffer.wrap(v);
        return v.length == VALUE_BYTES && b.getLong(8) == ~b.getLong(0) ? b.getLong(0) : -1;
    }

    /** A value of {@value #VALUE_BYTES} bytes: the word, then its complement, so a torn value is no written one. */
    private static byte[] value(long word) {
        return ByteBuffer.allocate(VALUE_BYTES).putLong(word).putLong(~word).array();
    }

    /** A call returning its result words. */
    @FunctionalInterface
    private interface Call {
        long[] run();
    }

    /** One thread's journaled calls: in-flight mark (the victim's), watchdog start time, voided timeouts. */
    private static final class Calls {
        private final List<HistoryJournal> journals;
        private final int index;
        private final MemorySegment inFlight;
        private final AtomicLongArray callStarted;
        long completed;
        long lockTimeouts;

        Calls(List<HistoryJournal> journals, int index, MemorySegment inFlight, AtomicLongArray callStarted) {
            this.journals = journals;
            this.index = index;
            this.inFlight = inFlight;
            this.callStarted = callStarted;
        }

        /**
         * Journals the invocation, marks the call in flight, runs it, unmarks it and journals the response;
         * a typed timeout that promises no effect is journaled as voided.
         *
         * @return the result words, or null when the call timed out without effect
         */
        long[] call(Structure s, String kind, long[] arguments, Call call) {
            HistoryJournal j = journals.get(s.ordinal());
            int op = j.invoke(index, kind, arguments);
            mark(1);
            long[] result;
            try {
                result = call.run();
            } catch (LockTimeoutException e) {
                mark(0);
                j.voided(op);
                lockTimeouts++;
                return null;
            }
            mark(0);
            j.respond(op, result);
            completed++;
            return result;
        }

        private void mark(long v) {
            if (inFlight != null) {
                ValueLayout.JAVA_LONG.varHandle().setVolatile(inFlight, 8L * index, v);
            }
            callStarted.set(index, v == 1 ? System.nanoTime() : 0);
        }
    }

    /** One operating thread. */
    private static final class Worker {
        private final int nodeId;
        private final int index;
        private final boolean victim;
        private final Path dir;
        private final long[] ptrs;
        private final List<HistoryJournal> journals;
        private final MemorySegment inFlight;
        private final AtomicLongArray callStarted;
        private final SplittableRandom rnd;
        private int offers;
        private int seq;

        Worker(int nodeId, int index, boolean victim, Path dir, long[] ptrs, List<HistoryJournal> journals, MemorySegment inFlight,
               AtomicLongArray callStarted) {
            this.nodeId = nodeId;
            this.index = index;
            this.victim = victim;
            this.dir = dir;
            this.ptrs = ptrs;
            this.journals = journals;
            this.inFlight = inFlight;
            this.callStarted = callStarted;
            this.rnd = new SplittableRandom(1_000_003L * (nodeId * WORKERS + index + 1));
        }

        String run(ComputeThread t) throws InterruptedException, IOException {
            Calls calls = new Calls(journals, index, inFlight, callStarted);
            long deadline = System.nanoTime() + RUN_BOUND.toNanos();
            try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), EPOCH);
                 LockFreeListSet lockFree = LockFreeListSet.attach(t, reclaimer, ptrs[0]);
                 LazyListSet lazy = LazyListSet.attach(new LockContext(t, LOCKS), reclaimer, ptrs[1]);
                 RemoteHashMap map = RemoteHashMap.attach(t, reclaimer, ptrs[2]);
                 MpmcCrashTolerantQueue queue = MpmcCrashTolerantQueue.attach(t, ptrs[3]);
                 MpmcScqQueue scq = MpmcScqQueue.attach(t, ptrs[4])) {
                progress("worker " + index + " attached");
                if (victim) {
                    for (int i = 0; System.nanoTime() - deadline < 0; i++) {
                        operate(calls, Structure.values()[rnd.nextInt(Structure.values().length)], lockFree, lazy, map, queue, scq);
                        if (index == 0 && i == READY_OPS) {
                            try {
                                Files.createFile(dir.resolve("ready"));
                            } catch (FileAlreadyExistsException ignored) {
                                // a second run of the same directory: the signal is the same
                            }
                        }
                    }
                    throw new AssertionError("the victim was not killed within " + RUN_BOUND);
                }
                for (int i = 0; i < BEFORE; i++) {
                    operate(calls, Structure.values()[rnd.nextInt(Structure.values().length)], lockFree, lazy, map, queue, scq);
                }
                Path killed = dir.resolve("killed");
                while (!Files.exists(killed)) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError("no kill within " + RUN_BOUND);
                    }
                    reclaimer.reclaim();
                    Thread.sleep(POLL_MILLIS);
                }
                long advancesAtKill = reclaimer.advances();
                long epochAtKill = reclaimer.globalEpoch();
                long before = calls.completed;
                int[] done = new int[Structure.values().length];
                int[] tries = new int[done.length];
                for (boolean more = true; more; ) {
                    more = false;
                    for (Structure s : Structure.values()) {
                        if (done[s.ordinal()] < AFTER) {
                            if (++tries[s.ordinal()] > MAX_TRIES) {
                                throw new AssertionError("node " + nodeId + " worker " + index + " completed only " + done[s.ordinal()]
                                        + " of " + AFTER + " calls on " + s + " in " + MAX_TRIES + " after the kill");
                            }
                            if (operate(calls, s, lockFree, lazy, map, queue, scq)) {
                                done[s.ordinal()]++;
                            }
                            more = true;
                        }
                    }
                }
                long afterKill = calls.completed - before;
                long advanceDeadline = System.nanoTime() + ADVANCE_BOUND.toNanos();
                while (reclaimer.advances() == advancesAtKill && System.nanoTime() - advanceDeadline < 0) {
                    reclaimer.reclaim();
                    Thread.sleep(POLL_MILLIS);
                }
                return "WORKER node=" + nodeId + " worker=" + index + " completed=" + calls.completed + " afterKill=" + afterKill
                        + " tries=" + Arrays.toString(tries).replace(" ", "") + " lockTimeouts=" + calls.lockTimeouts
                        + " queuePoisoned=" + queue.poisoned() + " advancesAfterKill=" + (reclaimer.advances() - advancesAtKill)
                        + " epochAtKill=" + epochAtKill + " epochAtEnd=" + reclaimer.globalEpoch() + " passes=" + reclaimer.passes()
                        + " limitTimeouts=" + reclaimer.limitTimeouts();
            }
        }

        /** One seeded random operation on {@code s}, journaled; true when it completed (was not voided). */
        private boolean operate(Calls calls, Structure s, LockFreeListSet lockFree, LazyListSet lazy, RemoteHashMap map,
                                MpmcCrashTolerantQueue queue, MpmcScqQueue scq) {
            long key = 1 + rnd.nextInt(KEYS);
            int pick = rnd.nextInt(10);
            seq++;
            long[] r = switch (s) {
                case LOCK_FREE_LIST, LAZY_LIST -> {
                    var set = s == Structure.LOCK_FREE_LIST ? lockFree : lazy;
                    if (pick < 4) {
                        yield calls.call(s, SetSpec.CONTAINS, new long[]{key}, () -> bool(set.contains(key)));
                    } else if (pick < 7) {
                        yield calls.call(s, SetSpec.ADD, new long[]{key}, () -> bool(set.insert(key)));
                    }
                    yield calls.call(s, SetSpec.REMOVE, new long[]{key}, () -> bool(set.remove(key)));
                }
                case HASH_MAP -> {
                    if (pick < 4) {
                        long word = ((nodeId * WORKERS + index + 1L) << 32) | seq;
                        yield calls.call(s, MapSpec.PUT, new long[]{key, word}, () -> bool(map.put(key, value(word))));
                    } else if (pick < 8) {
                        yield calls.call(s, MapSpec.GET, new long[]{key}, () -> got(map.get(key)));
                    }
                    yield calls.call(s, MapSpec.REMOVE, new long[]{key}, () -> bool(map.remove(key)));
                }
                case QUEUE -> {
                    if (pick < 5) {
                        long v = DataStructuresClusterTest.queueValue(nodeId, index, offers++);
                        yield calls.call(s, BoundedContainerSpec.PUT, new long[]{v}, () -> bool(queue.offer(v, PATIENCE)));
                    }
                    yield calls.call(s, BoundedContainerSpec.TAKE, new long[0], () -> polled(queue.poll(PATIENCE)));
                }
                case SCQ_QUEUE -> {
                    if (pick < 5) {
                        long v = DataStructuresClusterTest.queueValue(nodeId, index, offers++);
                        yield calls.call(s, BoundedContainerSpec.PUT, new long[]{v}, () -> bool(scq.offer(v)));
                    }
                    yield calls.call(s, BoundedContainerSpec.TAKE, new long[0], () -> polled(scq.poll()));
                }
            };
            return r != null;
        }
    }
}
