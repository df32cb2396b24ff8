package io.remus.ds.cluster;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.check.spec.MapSpec;
import io.remus.check.spec.SetSpec;
import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.Root;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;
import io.remus.core.testing.Straddles;
import io.remus.core.testing.TestCluster;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.object.BoundedContainerSpec;
import io.remus.ds.queue.MpmcBoundedQueue;
import io.remus.ds.queue.MpmcCrashTolerantQueue;
import io.remus.ds.queue.MpmcScqQueue;
import io.remus.ds.queue.ProducerClaimedException;
import io.remus.ds.queue.SpscRingBuffer;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.set.LazyListSet;
import io.remus.ds.set.LockFreeListSet;
import io.remus.ds.set.RemoteSet;
import io.remus.ds.testing.ClusterHistories;
import io.remus.ds.testing.ClusterWorkers;
import io.remus.verbs.testing.ClusterNode;
import io.remus.verbs.testing.ClusterTest;
import io.remus.verbs.testing.ClusterTests;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * remus-ds's data structures shared by hosts: each guest of {@code softroce/run-cluster N} plays node
 * {@code REMUS_CLUSTER_NODE} of N ({@link DataStructuresProcessesOnVerbsTest} plays the same with three
 * processes on one guest's device, and {@link #shouldCheckEveryStructureWhenSimulatedNodesPlayTheClusterScenario}
 * with three simulated nodes in this JVM). Node 0 creates a {@link LockFreeListSet}, a {@link LazyListSet}
 * with spin locks and a {@link RemoteHashMap}, homed round robin on the nodes; node {@code 1 % N} creates an
 * {@link MpmcBoundedQueue}, an {@link MpmcCrashTolerantQueue} and an {@link MpmcScqQueue} of {@value #QUEUE_CAPACITY}
 * words each (the crash-tolerant one with one spare cell per worker thread of the cluster, plus one) and node
 * {@code N - 1} an
 * {@link SpscRingBuffer}. Every node runs {@value #WORKERS} threads of {@value #OPS} seeded random operations
 * on the sets and the map over {@value #KEYS} keys, with epoch reclamation, and among them {@value #QUEUE_OPS}
 * offers or polls of each queue (each offered word unique: queue, process, thread, sequence), each recording
 * with its host's clock; node 0 then drains the queues, recorded too. The histories go to node 0 through
 * {@link ClusterHistories} (clock offsets bounded by RDMA round trips, files shipped by RDMA), which checks
 * each structure's merged history: the sets and the map key by key (P-compositionality: {@link SetSpec},
 * {@link MapSpec}), each queue whole ({@link BoundedContainerSpec}, FIFO, full answers exact: the crash-tolerant
 * queue answers full early only after a poll poisons a claim, which the calls' patience of 30 s rules out
 * here; the SCQ queue's full answers may come early, while calls in flight hold cells), plus that every word an offer added was polled exactly once and no poll returned a word never added;
 * it publishes the verdict every node asserts. Each node also reports the tickets its crash-tolerant queue
 * handles poisoned and the cells they lost.
 *
 * <p>The ring crosses processes: node 0 claims it as its producer (the consumer's node then finds the claim
 * held), offers {@value #RING_MESSAGES} known messages through {@value #RING_SLOTS} slots by RDMA WRITEs, and
 * closes; node {@code N - 1} polls its own memory and asserts it received exactly those messages, in order,
 * and nothing after the producer closed.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
public class DataStructuresClusterTest {
    private static final int PORT = 18900;
    private static final int WORKERS = 2;
    private static final int OPS = 60;
    private static final int KEYS = 4;
    private static final int VALUE_BYTES = 16;
    /** The sets and the map, checked key by key; their pointers are the directory's first words. */
    private static final int STRUCTURES = 3;
    /** The directory word of the MPMC queue's pointer. */
    private static final int QUEUE = 3;
    /** The directory word of the ring's pointer. */
    private static final int RING = 4;
    /** The directory word of the crash-tolerant queue's pointer. */
    private static final int CT_QUEUE = 5;
    /** The directory word of the SCQ queue's pointer. */
    private static final int SCQ_QUEUE = 6;
    private static final int DIRECTORY_WORDS = 7;
    private static final String QUEUE_NAME = "mpmc-queue";
    private static final String CT_QUEUE_NAME = "crash-tolerant-queue";
    private static final String SCQ_QUEUE_NAME = "scq-queue";
    private static final List<String> NAMES = List.of("lock-free-list", "lazy-list", "hash-map", QUEUE_NAME, CT_QUEUE_NAME,
            SCQ_QUEUE_NAME);
    /** The bit that marks a word offered to the crash-tolerant queue, apart from the MPMC queue's words. */
    private static final long CT_QUEUE_TAG = 1L << 56;
    /** The bit that marks a word offered to the SCQ queue. */
    private static final long SCQ_QUEUE_TAG = 1L << 57;
    private static final int QUEUE_CAPACITY = 4;
    /** Each worker's offers and polls of each queue, spread evenly among its {@value #OPS} operations. */
    private static final int QUEUE_OPS = 40;
    /**
     * How long a queue call may wait for another caller's claim in flight: a timeout fails an MPMC queue
     * worker, and makes a crash-tolerant queue poll poison the claim.
     */
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final int RING_SLOTS = 8;
    private static final int RING_MESSAGE_BYTES = 24;
    private static final int RING_MESSAGES = 200;
    /** How long the ring's producer may wait for room, and its consumer for all messages. */
    private static final Duration RING_BOUND = Duration.ofMinutes(2);
    private static final int SIM_NODES = 3;
    /** The simulator's torn words and yields inside writes and NIC atomics, for the simulated nodes. */
    private static final SimOptions HOSTILE = SimOptions.defaults().withTearWords(true).withYieldWhileTearing(true)
            .withYieldInsideNicAtomics(true);
    private static final Duration CONNECT = Duration.ofMinutes(8);
    private static final Duration RUN_BOUND = Duration.ofMinutes(5);
    private static final LockOptions LOCKS = LockOptions.defaults().withAcquireTimeout(Duration.ofSeconds(60));
    private static final EpochOptions EPOCH = EpochOptions.defaults().withLease(Duration.ofSeconds(10)).withBytes(4096, 16384)
            .withLimitWait(Duration.ofSeconds(30));
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));

    @ClusterTest
    void shouldCheckAsLinearizableWhenEveryHostUsesStructuresOfEveryHost() throws Exception {
        ClusterNode node = ClusterTests.node();
        System.out.println(play(ProcessFabric.verbs(DeviceTests.deviceName()), node.index(), node.addresses(), PORT,
                Files.createTempDirectory("ds-cluster")));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCheckEveryStructureWhenSimulatedNodesPlayTheClusterScenario() throws Exception {
        Path dir = Files.createTempDirectory("ds-cluster-sim");
        try (TestCluster c = new TestCluster(SimFabric::new, HOSTILE, SIM_NODES,
                b -> b.segmentSize(1 << 20).threadsPerNode(WORKERS + 2), Duration.ofSeconds(55))) {
            c.runOnThreads(new int[] {0, 1, 2}, (index, t) ->
                    System.out.println(run(c.node(index), t, SIM_NODES, Files.createDirectories(dir.resolve("node" + index)))));
        }
    }

    /**
     * The same scenario with every node's segment across a 4 GiB boundary ({@link Straddles}), so that a pointer
     * READ torn between two blocks on either side names no segment: the structures re-read it rather than fail.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {0, 5, 11})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCheckEveryStructureWhenSimulatedNodesPlayTheClusterScenarioOnSegmentsAcrossA4GiBBoundary(long seed)
            throws Exception {
        Path dir = Files.createTempDirectory("ds-cluster-straddled");
        try (TestCluster c = new TestCluster(SimFabric::new, Straddles.across(HOSTILE, seed, SIM_NODES), SIM_NODES,
                b -> b.segmentSize(1 << 20).threadsPerNode(WORKERS + 2), Duration.ofSeconds(55))) {
            c.runOnThreads(new int[] {0, 1, 2}, (index, t) ->
                    System.out.println(run(c.node(index), t, SIM_NODES, Files.createDirectories(dir.resolve("node" + index)))));
        }
    }

    @Test
    void shouldReportTheValueWhenAQueueHistoryTakesOneTwice() {
        long v = queueValue(1, 0, 0);
        History once = new History(HistoryClock.NANO_TIME);
        History.Recorder r = once.recorder(0);
        r.respond(r.invoke(BoundedContainerSpec.PUT, v), 1);
        r.respond(r.invoke(BoundedContainerSpec.TAKE), v);
        r.respond(r.invoke(BoundedContainerSpec.TAKE));
        assertNull(exactlyOnce(once.operations()));
        History twice = new History(HistoryClock.NANO_TIME);
        r = twice.recorder(0);
        r.respond(r.invoke(BoundedContainerSpec.PUT, v), 1);
        r.respond(r.invoke(BoundedContainerSpec.TAKE), v);
        r.respond(r.invoke(BoundedContainerSpec.TAKE), v);
        r.respond(r.invoke(BoundedContainerSpec.TAKE));
        String e = exactlyOnce(twice.operations());
        assertTrue(e != null && e.contains(v + "=offered 1, taken 2"), String.valueOf(e));
    }

    @Test
    void shouldReportTheValueWhenAQueueHistoryTakesOneNeverAdded() {
        History h = new History(HistoryClock.NANO_TIME);
        History.Recorder r = h.recorder(0);
        long v = queueValue(0, 1, 3);
        r.respond(r.invoke(BoundedContainerSpec.PUT, v), 0);
        r.respond(r.invoke(BoundedContainerSpec.TAKE), v);
        r.respond(r.invoke(BoundedContainerSpec.TAKE));
        String e = exactlyOnce(h.operations());
        assertTrue(e != null && e.contains(v + "=offered 0, taken 1"), String.valueOf(e));
    }

    @Test
    void shouldReportAValueLeftInTheQueueWhenTheLastTakeFoundOne() {
        History h = new History(HistoryClock.NANO_TIME);
        History.Recorder r = h.recorder(0);
        r.respond(r.invoke(BoundedContainerSpec.PUT, queueValue(0, 0, 0)), 1);
        String e = exactlyOnce(h.operations());
        assertTrue(e != null && e.contains("no take that found the queue empty"), String.valueOf(e));
    }

    @Test
    void shouldKeepEachQueuesWordsApartWhenTheSameThreadOffersToBoth() {
        Set<Long> mpmc = new HashSet<>();
        Set<Long> crashTolerant = new HashSet<>();
        for (int process = 0; process < SIM_NODES; process++) {
            for (int thread = 0; thread < WORKERS; thread++) {
                for (int sequence = 0; sequence < QUEUE_OPS; sequence++) {
                    assertTrue(mpmc.add(queueValue(process, thread, sequence)));
                    assertTrue(crashTolerant.add(crashTolerantQueueValue(process, thread, sequence)));
                }
            }
        }
        crashTolerant.retainAll(mpmc);
        assertEquals(Set.of(), crashTolerant);
    }

    @Test
    void shouldNameTheFirstWrongMessageWhenTheRingLostReorderedOrRepeatedOne() {
        List<byte[]> exact = new ArrayList<>();
        for (int i = 0; i < RING_MESSAGES; i++) {
            exact.add(ringMessage(i));
        }
        assertNull(ringFailure(exact));
        List<byte[]> swapped = new ArrayList<>(exact);
        swapped.set(5, exact.get(6));
        swapped.set(6, exact.get(5));
        assertTrue(ringFailure(swapped).startsWith("message 5 is "), ringFailure(swapped));
        List<byte[]> lost = new ArrayList<>(exact.subList(0, RING_MESSAGES - 1));
        assertEquals("only " + (RING_MESSAGES - 1) + " of " + RING_MESSAGES + " messages arrived", ringFailure(lost));
        List<byte[]> repeated = new ArrayList<>(exact);
        repeated.add(exact.get(RING_MESSAGES - 1));
        assertTrue(ringFailure(repeated).startsWith("message " + RING_MESSAGES + " arrived after all"), ringFailure(repeated));
    }

    /**
     * Plays one node: joins the cluster over rdma_cm, runs, and on node 0 checks every host's histories.
     *
     * @param fabric   the fabric: the verbs fabric (over rdma_cm) or the shared-memory fabric
     * @param nodeId   this node
     * @param hosts    every node's host; node {@code i} listens at {@code hosts[i]:basePort+i}
     * @param basePort node 0's port
     * @param dir      a local directory for history files
     * @return what this node reports
     * @throws AssertionError when a check failed here or, for other nodes, on node 0
     */
    static String play(ProcessFabric fabric, int nodeId, List<String> hosts, int basePort, Path dir) throws Exception {
        ClusterConfig config = ClusterProcess.builder(nodeId, hosts, basePort).segmentSize(1 << 20)
                .threadsPerNode(WORKERS + 2).operationTimeout(Duration.ofSeconds(60)).build();
        return ClusterProcess.run(fabric, config, CONNECT, (n, main) -> run(n, main, hosts.size(), dir));
    }

    private static String run(RemusNode clusterNode, ComputeThread main, int size, Path dir) throws Exception {
        int self = main.nodeId();
        ClusterBarrier barrier = ClusterBarrier.ofComputeNodes(main, RUN_BOUND);
        Root root = new Root(main);
        long directoryBytes = 8L * DIRECTORY_WORDS + ClusterHistories.bytes(size, NAMES.size());
        if (self == 0) {
            NeverReclaimer never = new NeverReclaimer(main);
            long[] ptrs = new long[STRUCTURES];
            try (LockFreeListSet s = LockFreeListSet.create(main, never, 0 % size)) {
                ptrs[0] = s.ptr();
            }
            try (LazyListSet s = LazyListSet.create(new LockContext(main, LOCKS), never, LockKind.SPIN, 1 % size)) {
                ptrs[1] = s.ptr();
            }
            RemoteHashMap map = RemoteHashMap.create(main, never, 2 % size, 64, VALUE_BYTES);
            ptrs[2] = map.ptr();
            map.close();
            long directory = main.allocator().allocate(directoryBytes, 0);
            for (long off = 0; off < directoryBytes; off += 8) {
                main.write(directory + off, off < 8L * STRUCTURES ? ptrs[(int) (off / 8)] : 0);  // queues and ring: 0 until made
            }
            root.set(directory);
        }
        barrier.await();
        long directory = root.get();
        SpscRingBuffer.Consumer consumer = null;
        if (self == queueHome(size)) {
            try (MpmcBoundedQueue q = MpmcBoundedQueue.create(main, QUEUE_CAPACITY)) {
                main.write(directory + 8L * QUEUE, q.ptr());
            }
            try (MpmcCrashTolerantQueue q = MpmcCrashTolerantQueue.create(main, QUEUE_CAPACITY, ctQueueSpare(size))) {
                main.write(directory + 8L * CT_QUEUE, q.ptr());
            }
            try (MpmcScqQueue q = MpmcScqQueue.create(main, QUEUE_CAPACITY)) {
                main.write(directory + 8L * SCQ_QUEUE, q.ptr());
            }
        }
        if (self == ringConsumer(size)) {
            consumer = SpscRingBuffer.create(main, RING_SLOTS, RING_MESSAGE_BYTES);
            main.write(directory + 8L * RING, consumer.ptr());
        }
        ClusterHistories cluster = new ClusterHistories(main, directory + 8L * DIRECTORY_WORDS, size, NAMES, RUN_BOUND, dir);
        cluster.clockPhase(0);
        barrier.await();
        long[] ptrs = new long[DIRECTORY_WORDS];
        for (int i = 0; i < DIRECTORY_WORDS; i++) {
            ptrs[i] = main.read(directory + 8L * i);
        }
        Map<String, History> histories = new LinkedHashMap<>();
        for (String name : NAMES) {
            histories.put(name, new History(HistoryClock.EPOCH_MICROS, self));
        }
        LongAdder poisoned = new LongAdder();
        LongAdder lostCells = new LongAdder();
        ClusterWorkers.run(clusterNode, WORKERS, barrier, RUN_BOUND,
                (ct, index, start) -> work(ct, self * WORKERS + index, index, ptrs, histories, start, poisoned, lostCells));
        barrier.await();
        if (self == 0) {
            drain(main, ptrs[QUEUE], histories.get(QUEUE_NAME).recorder(WORKERS));
            drainCrashTolerant(main, ptrs[CT_QUEUE], histories.get(CT_QUEUE_NAME).recorder(WORKERS), poisoned, lostCells);
            try (MpmcScqQueue q = MpmcScqQueue.attach(main, ptrs[SCQ_QUEUE])) {
                drain(histories.get(SCQ_QUEUE_NAME).recorder(WORKERS), q::poll, "SCQ queue " + Long.toHexString(ptrs[SCQ_QUEUE]));
            }
        }
        List<String> ringFailures = playRing(main, barrier, self, size, ptrs[RING], consumer);
        cluster.clockPhase(1);
        Map<String, List<Operation>> merged = cluster.gather(histories);
        String ring = self == ringConsumer(size) ? "; the ring's consumer received " + RING_MESSAGES
                + " messages from node " + ringProducer(size) + (ringFailures.isEmpty() ? " exactly, in order" : " wrongly")
                : "";
        String ctCounts = "; this node's crash-tolerant queue handles poisoned " + poisoned.sum() + " tickets and lost "
                + lostCells.sum() + " cells";
        if (self != 0) {
            boolean passed = cluster.awaitVerdict();
            if (!ringFailures.isEmpty()) {
                throw new AssertionError(String.join("\n", ringFailures));
            }
            if (!passed) {
                throw new AssertionError("node 0 found the merged histories wrong (see its output)");
            }
            return "node " + self + ": node 0 checked the merged histories as linearizable" + ring + ctCounts;
        }
        List<String> failures = new ArrayList<>();
        try {
            for (String name : NAMES) {
                List<Operation> history = merged.get(name);
                CheckResult result = switch (name) {
                    case QUEUE_NAME -> CHECKER.check(history, new BoundedContainerSpec(true, QUEUE_CAPACITY));
                    case CT_QUEUE_NAME -> CHECKER.check(history, new BoundedContainerSpec(true, QUEUE_CAPACITY, false));
                    case SCQ_QUEUE_NAME -> CHECKER.check(history, new BoundedContainerSpec(true, QUEUE_CAPACITY, true));
                    case "hash-map" -> CHECKER.checkByKey(history, new MapSpec());
                    default -> CHECKER.checkByKey(history, new SetSpec());
                };
                System.out.println(name + ": " + history.size() + " operations, " + ClusterHistories.crossHostOverlaps(history)
                        + " pairs of different hosts overlapping in time, " + result.verdict() + " after " + result.configurations()
                        + " configurations");
                if (result.verdict() != Verdict.LINEARIZABLE) {
                    failures.add(name + ": " + result);
                }
                if (name.equals(QUEUE_NAME) || name.equals(CT_QUEUE_NAME) || name.equals(SCQ_QUEUE_NAME)) {
                    String e = exactlyOnce(history);
                    if (e != null) {
                        failures.add(name + ": " + e);
                    }
                }
            }
            cluster.printSpans(merged.values().stream().flatMap(List::stream).toList());
        } catch (RuntimeException | Error e) {
            cluster.publish(false);
            throw e;
        }
        cluster.publish(failures.isEmpty());
        failures.addAll(ringFailures);
        if (!failures.isEmpty()) {
            throw new AssertionError(String.join("\n", failures));
        }
        return "node 0: every structure's merged history of " + size + " hosts is linearizable, every value offered to the"
                + " MPMC queue was polled exactly once, and so was every value offered to the crash-tolerant and the SCQ queues"
                + ring + ctCounts;
    }

    /** The node the three MPMC queues are on. */
    static int queueHome(int size) {
        return 1 % size;
    }

    /**
     * The crash-tolerant queue's spare cells: one per worker thread of the cluster (the most calls in flight at
     * once), plus one, so that no full answer comes from cells held by calls in flight.
     */
    static int ctQueueSpare(int size) {
        return size * WORKERS + 1;
    }

    /** The node of the ring's consumer, where the ring is. */
    static int ringConsumer(int size) {
        return size - 1;
    }

    /** The node of the ring's producer, another one than the consumer's (with two or more nodes). */
    static int ringProducer(int size) {
        return 0;
    }

    /**
     * One thread's seeded random operations on every structure, recorded; adds the tickets its crash-tolerant
     * queue handle poisoned and the cells it lost to {@code poisoned} and {@code lostCells}.
     */
    private static void work(ComputeThread t, int gid, int index, long[] ptrs, Map<String, History> histories,
                             ClusterWorkers.Start start, LongAdder poisoned, LongAdder lostCells) throws InterruptedException {
        try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), EPOCH);
             RemoteSet lockFree = LockFreeListSet.attach(t, reclaimer, ptrs[0]);
             RemoteSet lazy = LazyListSet.attach(new LockContext(t, LOCKS), reclaimer, ptrs[1]);
             RemoteHashMap map = RemoteHashMap.attach(t, reclaimer, ptrs[2]);
             MpmcBoundedQueue queue = MpmcBoundedQueue.attach(t, ptrs[QUEUE]);
             MpmcCrashTolerantQueue ctQueue = MpmcCrashTolerantQueue.attach(t, ptrs[CT_QUEUE]);
             MpmcScqQueue scqQueue = MpmcScqQueue.attach(t, ptrs[SCQ_QUEUE])) {
            List<History.Recorder> recorders = NAMES.subList(0, STRUCTURES).stream().map(n -> histories.get(n).recorder(index))
                    .toList();
            History.Recorder queueRecorder = histories.get(QUEUE_NAME).recorder(index);
            History.Recorder ctRecorder = histories.get(CT_QUEUE_NAME).recorder(index);
            History.Recorder scqRecorder = histories.get(SCQ_QUEUE_NAME).recorder(index);
            SplittableRandom rnd = new SplittableRandom(104_729L * (gid + 1));
            SplittableRandom queueRnd = new SplittableRandom(7_368_787L * (gid + 1));
            SplittableRandom ctRnd = new SplittableRandom(15_485_863L * (gid + 1));
            SplittableRandom scqRnd = new SplittableRandom(32_452_843L * (gid + 1));
            int offers = 0;
            int ctOffers = 0;
            int scqOffers = 0;
            for (long key = 1; key <= KEYS; key++) {
                lockFree.contains(key);
                lazy.contains(key);
                map.containsKey(key);
            }
            start.attachedAwaitStart();
            for (int i = 0; i < OPS; i++) {
                if (ThreadLocalRandom.current().nextInt(3) == 0) {
                    Thread.yield();
                }
                int s = rnd.nextInt(STRUCTURES);
                History.Recorder r = recorders.get(s);
                long key = 1 + rnd.nextInt(KEYS);
                int pick = rnd.nextInt(10);
                if (s < 2) {
                    RemoteSet set = s == 0 ? lockFree : lazy;
                    if (pick < 4) {
                        int op = r.invoke(SetSpec.CONTAINS, key);
                        r.respond(op, set.contains(key) ? 1 : 0);
                    } else if (pick < 7) {
                        int op = r.invoke(SetSpec.ADD, key);
                        r.respond(op, set.insert(key) ? 1 : 0);
                    } else {
                        int op = r.invoke(SetSpec.REMOVE, key);
                        r.respond(op, set.remove(key) ? 1 : 0);
                    }
                } else if (pick < 4) {
                    long word = ((gid + 1L) << 32) | (i + 1);
                    int op = r.invoke(MapSpec.PUT, key, word);
                    r.respond(op, map.put(key, value(word)) ? 1 : 0);
                } else if (pick < 8) {
                    int op = r.invoke(MapSpec.GET, key);
                    byte[] v = map.get(key);
                    if (v == null) {
                        r.respond(op, 0);
                    } else {
                        r.respond(op, 1, wordOf(v));
                    }
                } else {
                    int op = r.invoke(MapSpec.REMOVE, key);
                    r.respond(op, map.remove(key) ? 1 : 0);
                }
                if ((long) i * QUEUE_OPS / OPS != (long) (i + 1) * QUEUE_OPS / OPS) {
                    if (queueRnd.nextBoolean()) {
                        long v = queueValue(t.nodeId(), index, offers++);
                        recordOffer(queueRecorder, v, () -> queue.offer(v, PATIENCE));
                    } else {
                        recordTake(queueRecorder, () -> queue.poll(PATIENCE));
                    }
                    if (ctRnd.nextBoolean()) {
                        long v = crashTolerantQueueValue(t.nodeId(), index, ctOffers++);
                        recordOffer(ctRecorder, v, () -> ctQueue.offer(v, PATIENCE));
                    } else {
                        recordTake(ctRecorder, () -> ctQueue.poll(PATIENCE));
                    }
                    if (scqRnd.nextBoolean()) {
                        long v = queueValue(t.nodeId(), index, scqOffers++) | SCQ_QUEUE_TAG;
                        recordOffer(scqRecorder, v, () -> scqQueue.offer(v));
                    } else {
                        recordTake(scqRecorder, scqQueue::poll);
                    }
                }
            }
            poisoned.add(ctQueue.poisoned());
            lostCells.add(ctQueue.lostCells());
        }
    }

    /** A word offered once in the whole run: the process, the thread on it and the thread's offer count. */
    static long queueValue(int process, int thread, int sequence) {
        return ((process + 1L) << 40) | ((thread + 1L) << 24) | (sequence + 1L);
    }

    /**
     * A word offered once in the whole run to the crash-tolerant queue: {@link #queueValue} with a tag bit, so
     * no word of one queue is a word of the other.
     */
    static long crashTolerantQueueValue(int process, int thread, int sequence) {
        return queueValue(process, thread, sequence) | CT_QUEUE_TAG;
    }

    /** Records one offer of {@code v}: invoked before {@code offer} runs, answered with what it returned. */
    private static void recordOffer(History.Recorder r, long v, BooleanSupplier offer) {
        int op = r.invoke(BoundedContainerSpec.PUT, v);
        r.respond(op, offer.getAsBoolean() ? 1 : 0);
    }

    /** Records one poll: its value, or no value when it found the queue empty; returns whether it found one. */
    private static boolean recordTake(History.Recorder r, Supplier<OptionalLong> poll) {
        int op = r.invoke(BoundedContainerSpec.TAKE);
        OptionalLong v = poll.get();
        if (v.isEmpty()) {
            r.respond(op);
            return false;
        }
        r.respond(op, v.getAsLong());
        return true;
    }

    /** Polls until the queue answers empty, recording every poll; at most {@value #QUEUE_CAPACITY} + 1 polls. */
    private static void drain(History.Recorder r, Supplier<OptionalLong> poll, String queue) {
        for (int i = 0; i <= QUEUE_CAPACITY; i++) {
            if (!recordTake(r, poll)) {
                return;
            }
        }
        throw new AssertionError(queue + " of capacity " + QUEUE_CAPACITY + " gave " + (QUEUE_CAPACITY + 1)
                + " words when it was drained");
    }

    /**
     * Node 0, after every worker: polls the queue until it answers empty, recorded as takes of one more
     * thread, so the final contents are in the history; at most {@value #QUEUE_CAPACITY} + 1 polls.
     */
    private static void drain(ComputeThread main, long ptr, History.Recorder r) {
        try (MpmcBoundedQueue queue = MpmcBoundedQueue.attach(main, ptr)) {
            drain(r, () -> queue.poll(PATIENCE), "queue " + Long.toHexString(ptr));
        }
    }

    /**
     * {@link #drain(ComputeThread, long, History.Recorder)} for the crash-tolerant queue; adds what its handle
     * poisoned and lost to {@code poisoned} and {@code lostCells}.
     */
    private static void drainCrashTolerant(ComputeThread main, long ptr, History.Recorder r, LongAdder poisoned,
                                           LongAdder lostCells) {
        try (MpmcCrashTolerantQueue queue = MpmcCrashTolerantQueue.attach(main, ptr)) {
            try {
                drain(r, () -> queue.poll(PATIENCE), "crash-tolerant queue " + Long.toHexString(ptr));
            } finally {
                poisoned.add(queue.poisoned());
                lostCells.add(queue.lostCells());
            }
        }
    }

    /**
     * Every value an offer added was taken exactly once (by a worker or the drain), no take returned a
     * value that no offer added, no operation is pending, and the last take (the drain's) found the
     * queue empty.
     *
     * @param history a merged queue history
     * @return null when so, else what is wrong
     */
    static String exactlyOnce(List<Operation> history) {
        Map<Long, Integer> in = new HashMap<>();
        Map<Long, Integer> out = new HashMap<>();
        Operation last = null;
        for (Operation op : history) {
            if (op.isPending()) {
                return "operation " + op + " has no response";
            }
            if (op.kind().equals(BoundedContainerSpec.PUT) && op.result()[0] == 1) {
                in.merge(op.arguments()[0], 1, Integer::sum);
            } else if (op.kind().equals(BoundedContainerSpec.TAKE) && op.result().length == 1) {
                out.merge(op.result()[0], 1, Integer::sum);
            }
            if (last == null || op.invokedAt() > last.invokedAt()) {
                last = op;
            }
        }
        if (last == null || !last.kind().equals(BoundedContainerSpec.TAKE) || last.result().length != 0) {
            return "the last operation, " + last + ", is no take that found the queue empty";
        }
        if (in.equals(out)) {
            return null;
        }
        Map<Long, String> wrong = new TreeMap<>();
        in.forEach((v, n) -> {
            if (!Integer.valueOf(n).equals(out.get(v))) {
                wrong.put(v, "offered " + n + ", taken " + out.getOrDefault(v, 0));
            }
        });
        out.forEach((v, n) -> {
            if (!in.containsKey(v)) {
                wrong.put(v, "offered 0, taken " + n);
            }
        });
        return "values not taken exactly once: " + wrong;
    }

    /**
     * The ring across processes, played on every node's main thread with the same barrier calls: the
     * producer's node claims the ring; the consumer's node then finds the claim held
     * ({@link ProducerClaimedException}); the producer offers {@value #RING_MESSAGES} known messages
     * (waiting for room, at most {@link #RING_BOUND} in all) and closes, while the consumer polls its
     * own memory for them (at most {@link #RING_BOUND}); after the producer closed, the consumer finds
     * no further message.
     *
     * @return this node's failures, none when every check passed
     */
    private static List<String> playRing(ComputeThread main, ClusterBarrier barrier, int self, int size, long ring,
                                         SpscRingBuffer.Consumer consumer) {
        List<String> failures = new ArrayList<>();
        SpscRingBuffer.Producer producer = null;
        if (self == ringProducer(size)) {
            try {
                producer = SpscRingBuffer.producer(main, ring);
            } catch (ProducerClaimedException e) {
                failures.add("node " + self + " could not claim the ring: " + e.getMessage());
            }
        }
        barrier.await();
        if (self == ringConsumer(size)) {
            try {
                SpscRingBuffer.producer(main, ring).close();
                failures.add("node " + self + " claimed the ring while node " + ringProducer(size) + " held it");
            } catch (ProducerClaimedException expected) {
                // the one producer holds it
            }
        }
        barrier.await();
        List<byte[]> received = new ArrayList<>();
        if (producer != null) {
            long fullAnswers = 0;
            long end = System.nanoTime() + RING_BOUND.toNanos();
            try (SpscRingBuffer.Producer p = producer) {
                for (int i = 0; i < RING_MESSAGES && failures.isEmpty(); i++) {
                    MemorySegment m = MemorySegment.ofArray(ringMessage(i));
                    while (!p.offer(m)) {
                        fullAnswers++;
                        if (System.nanoTime() - end > 0) {
                            failures.add("the ring stayed full for message " + i + " past " + RING_BOUND);
                            break;
                        }
                        LockSupport.parkNanos(50_000);
                    }
                }
            }
            System.out.println("node " + self + ": offered the ring " + RING_MESSAGES + " messages, " + fullAnswers
                    + " full answers");
        } else if (consumer != null) {
            MemorySegment buffer = MemorySegment.ofArray(new byte[RING_MESSAGE_BYTES]);
            long end = System.nanoTime() + RING_BOUND.toNanos();
            while (received.size() < RING_MESSAGES && System.nanoTime() - end < 0) {
                int n = consumer.poll(buffer);
                if (n < 0) {
                    LockSupport.parkNanos(50_000);
                } else {
                    received.add(buffer.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
                }
            }
        }
        barrier.await();
        if (consumer != null) {
            MemorySegment buffer = MemorySegment.ofArray(new byte[RING_MESSAGE_BYTES]);
            int n = consumer.poll(buffer);
            if (n >= 0) {
                received.add(buffer.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
            }
            String e = ringFailure(received);
            if (e != null) {
                failures.add("ring consumer on node " + self + ": " + e);
            }
        }
        return failures;
    }

    /**
     * Message {@code i} of the ring: {@code 8 + i % 17} bytes (8..24), the index as a word, then bytes
     * derived from it.
     */
    static byte[] ringMessage(int i) {
        ByteBuffer b = ByteBuffer.allocate(8 + i % (RING_MESSAGE_BYTES - 7)).putLong(i);
        while (b.hasRemaining()) {
            b.put((byte) (i * 31 + b.position()));
        }
        return b.array();
    }

    /**
     * @param received what the consumer polled, in order, including one poll after the producer closed
     * @return null when it is exactly messages 0..{@value #RING_MESSAGES}-1 in order, else the first difference
     */
    static String ringFailure(List<byte[]> received) {
        for (int i = 0; i < received.size(); i++) {
            if (i >= RING_MESSAGES) {
                return "message " + i + " arrived after all " + RING_MESSAGES + ": " + Arrays.toString(received.get(i));
            }
            if (!Arrays.equals(received.get(i), ringMessage(i))) {
                return "message " + i + " is " + Arrays.toString(received.get(i)) + ", expected " + Arrays.toString(ringMessage(i));
            }
        }
        return received.size() == RING_MESSAGES ? null : "only " + received.size() + " of " + RING_MESSAGES + " messages arrived";
    }

    /** The word a value holds, or -1 (no written word) when it is not one whole written value. */
    private static long wordOf(byte[] v) {
        ByteBuffer b = ByteBuffer.wrap(v);
        return v.length == VALUE_BYTES && b.getLong(8) == ~b.getLong(0) ? b.getLong(0) : -1;
    }

    /** A value of {@value #VALUE_BYTES} bytes: the word, then its complement, so a torn value is no written one. */
    private static byte[] value(long word) {
        return ByteBuffer.allocate(VALUE_BYTES).putLong(word).putLong(~word).array();
    }
}
