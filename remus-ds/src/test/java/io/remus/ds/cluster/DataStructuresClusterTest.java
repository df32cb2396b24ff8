package io.remus.ds.cluster;

import io.remus.alock.LockContext;
import io.remus.alock.LockKind;
import io.remus.alock.LockOptions;
import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Specification;
import io.remus.check.Verdict;
import io.remus.check.spec.MapSpec;
import io.remus.check.spec.SetSpec;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.memory.ClusterBarrier;
import io.remus.core.memory.Root;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.verbs.VerbsFabricOptions;
import io.remus.ds.map.RemoteHashMap;
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
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * remus-ds's data structures shared by hosts: each guest of {@code softroce/run-cluster N} plays node
 * {@code REMUS_CLUSTER_NODE} of N ({@link DataStructuresProcessesOnVerbsTest} plays the same with three
 * processes on one guest's device). Node 0 creates a {@link LockFreeListSet}, a {@link LazyListSet}
 * with spin locks and a {@link RemoteHashMap}, homed round robin on the nodes; every node runs
 * {@value #WORKERS} threads of {@value #OPS} seeded random operations on all three over
 * {@value #KEYS} keys, with epoch reclamation, each recording with its host's clock. The histories
 * go to node 0 through {@link ClusterHistories} (clock offsets bounded by RDMA round trips, files
 * shipped by RDMA), which checks each structure's merged history key by key (P-compositionality:
 * {@link SetSpec}, {@link MapSpec}) and publishes the verdict every node asserts.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
public class DataStructuresClusterTest {
    private static final int PORT = 18900;
    private static final int WORKERS = 2;
    private static final int OPS = 60;
    private static final int KEYS = 4;
    private static final int VALUE_BYTES = 16;
    private static final int STRUCTURES = 3;
    private static final List<String> NAMES = List.of("lock-free-list", "lazy-list", "hash-map");
    private static final Duration CONNECT = Duration.ofMinutes(8);
    private static final Duration RUN_BOUND = Duration.ofMinutes(5);
    private static final LockOptions LOCKS = LockOptions.defaults().withAcquireTimeout(Duration.ofSeconds(60));
    private static final EpochOptions EPOCH = EpochOptions.defaults().withLease(Duration.ofSeconds(10)).withBytes(4096, 16384)
            .withLimitWait(Duration.ofSeconds(30));
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));

    @ClusterTest
    void shouldCheckAsLinearizableWhenEveryHostUsesStructuresOfEveryHost() throws Exception {
        ClusterNode node = ClusterTests.node();
        System.out.println(play(DeviceTests.deviceName(), node.index(), node.addresses(), PORT,
                Files.createTempDirectory("ds-cluster")));
    }

    /**
     * Plays one node: joins the cluster over rdma_cm, runs, and on node 0 checks every host's histories.
     *
     * @param device   the RDMA device
     * @param nodeId   this node
     * @param hosts    every node's host; node {@code i} listens at {@code hosts[i]:basePort+i}
     * @param basePort node 0's port
     * @param dir      a local directory for history files
     * @return what this node reports
     * @throws AssertionError when a check failed here or, for other nodes, on node 0
     */
    static String play(String device, int nodeId, List<String> hosts, int basePort, Path dir) throws Exception {
        ClusterConfig config = ClusterProcess.builder(nodeId, hosts, basePort).segmentSize(1 << 20)
                .threadsPerNode(WORKERS + 2).operationTimeout(Duration.ofSeconds(60)).build();
        VerbsFabricOptions options = VerbsFabricOptions.cluster(device, config, CONNECT);
        return ClusterProcess.run(options, config, CONNECT, (n, main) -> run(n, main, hosts.size(), dir));
    }

    private static String run(RemusNode clusterNode, ComputeThread main, int size, Path dir) throws Exception {
        int self = main.nodeId();
        ClusterBarrier barrier = ClusterBarrier.ofComputeNodes(main, RUN_BOUND);
        Root root = new Root(main);
        long directoryBytes = 8L * STRUCTURES + ClusterHistories.bytes(size, STRUCTURES);
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
                main.write(directory + off, off < 8L * STRUCTURES ? ptrs[(int) (off / 8)] : 0);
            }
            root.set(directory);
        }
        barrier.await();
        long directory = root.get();
        long[] ptrs = new long[STRUCTURES];
        for (int i = 0; i < STRUCTURES; i++) {
            ptrs[i] = main.read(directory + 8L * i);
        }
        ClusterHistories cluster = new ClusterHistories(main, directory + 8L * STRUCTURES, size, NAMES, RUN_BOUND, dir);
        cluster.clockPhase(0);
        barrier.await();
        Map<String, History> histories = new LinkedHashMap<>();
        for (String name : NAMES) {
            histories.put(name, new History(HistoryClock.EPOCH_MICROS, self));
        }
        ClusterWorkers.run(clusterNode, WORKERS, barrier, RUN_BOUND,
                (ct, index, start) -> work(ct, self * WORKERS + index, index, ptrs, histories, start));
        barrier.await();
        cluster.clockPhase(1);
        Map<String, List<Operation>> merged = cluster.gather(histories);
        if (self != 0) {
            if (!cluster.awaitVerdict()) {
                throw new AssertionError("node 0 found the merged histories wrong (see its output)");
            }
            return "node " + self + ": node 0 checked the merged histories as linearizable";
        }
        List<String> failures = new ArrayList<>();
        try {
            for (String name : NAMES) {
                List<Operation> history = merged.get(name);
                Specification<?> spec = name.equals("hash-map") ? new MapSpec() : new SetSpec();
                CheckResult result = CHECKER.checkByKey(history, spec);
                System.out.println(name + ": " + history.size() + " operations, " + ClusterHistories.crossHostOverlaps(history)
                        + " pairs of different hosts overlapping in time, " + result.verdict() + " after " + result.configurations()
                        + " configurations");
                if (result.verdict() != Verdict.LINEARIZABLE) {
                    failures.add(name + ": " + result);
                }
            }
            cluster.printSpans(merged.values().stream().flatMap(List::stream).toList());
        } catch (RuntimeException | Error e) {
            cluster.publish(false);
            throw e;
        }
        cluster.publish(failures.isEmpty());
        if (!failures.isEmpty()) {
            throw new AssertionError(String.join("\n", failures));
        }
        return "node 0: every structure's merged history of " + size + " hosts is linearizable";
    }

    /** One thread's seeded random operations on every structure, recorded. */
    private static void work(ComputeThread t, int gid, int index, long[] ptrs, Map<String, History> histories,
                             ClusterWorkers.Start start) throws InterruptedException {
        try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), EPOCH);
             RemoteSet lockFree = LockFreeListSet.attach(t, reclaimer, ptrs[0]);
             RemoteSet lazy = LazyListSet.attach(new LockContext(t, LOCKS), reclaimer, ptrs[1]);
             RemoteHashMap map = RemoteHashMap.attach(t, reclaimer, ptrs[2])) {
            List<History.Recorder> recorders = NAMES.stream().map(n -> histories.get(n).recorder(index)).toList();
            SplittableRandom rnd = new SplittableRandom(104_729L * (gid + 1));
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
            }
        }
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
