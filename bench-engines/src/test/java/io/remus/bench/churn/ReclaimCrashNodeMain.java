package io.remus.bench.churn;

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

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A child JVM of {@link ProcessCrashReclaimOnVerbsTest}: node {@code nodeId} of {@code size} processes on
 * one device. Nodes {@code 0..size-2} are memory and compute nodes; the last node is compute only (so
 * that its death takes no memory with it) and is the victim. Node 0 creates the churn array; then
 * every process runs {@link #WORKERS} churn threads with {@link EpochReclaimer}. The victim's first
 * worker creates {@code readyFile} after {@link #READY_OPS} operations and the victim churns on until
 * it is killed. The survivors churn until {@code killedFile} exists and then until each worker has
 * retired {@code postKillBytes} more (at most {@link #POST_KILL_BOUND} longer), read every slot again with a read-only churn, and print one {@code WORKER} line per worker
 * and one {@code CHECK} line of {@code key=value} pairs. Arguments:
 * {@code fabric nodeId size basePort readyFile killedFile postKillBytes}.
 */
public final class ReclaimCrashNodeMain {
    /** Churn threads per process. */
    static final int WORKERS = 2;
    /** Slots of the shared array. */
    static final int SLOTS = 16;
    /** The epoch reclaimer's limit per thread. */
    static final long LIMIT = 4096;
    /** The lease: how long the dead process's announcements hold the epoch back. */
    static final Duration LEASE = Duration.ofSeconds(1);
    /** Operations of the victim's first worker before it says it is ready to be killed. */
    static final int READY_OPS = 200;
    /** The longest a survivor churns after it saw the kill. */
    static final Duration POST_KILL_BOUND = Duration.ofSeconds(90);
    private static final Duration RUN_BOUND = Duration.ofMinutes(4);
    private static final EpochOptions OPTIONS = EpochOptions.defaults().withLease(LEASE).withClockSkew(Duration.ZERO)
            .withBytes(LIMIT / 4, LIMIT).withLimitWait(Duration.ofSeconds(60));

    private ReclaimCrashNodeMain() {
    }

    /** @param args fabric ({@link ProcessFabric#parse}), node id, size, base port, ready file, killed file, bytes each survivor worker retires after the kill */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Path ready = Path.of(args[4]);
        Path killed = Path.of(args[5]);
        long postKill = Long.parseLong(args[6]);
        Duration connect = Duration.ofSeconds(120);
        ClusterConfig config = ClusterProcess.builder(nodeId, fabric.hosts(size), basePort)
                .memoryNodes(new NodeRange(0, size - 2)).segmentSize(1 << 20).threadsPerNode(WORKERS + 2)
                .operationTimeout(Duration.ofSeconds(30)).build();
        System.out.println("PROGRESS joining node=" + nodeId);
        System.out.flush();
        RemusCluster cluster = fabric.builder(config, connect)
                .shutdownTimeout(Duration.ofSeconds(15)).join();
        System.out.println("PROGRESS joined node=" + nodeId);
        System.out.flush();
        boolean victim = nodeId == size - 1;
        List<String> lines = new ArrayList<>();
        try {
            ComputeThread main = cluster.computeThread();
            Root root = new Root(main);
            if (nodeId == 0) {
                root.set(ChurnWorkload.createArray(main, main.allocator(), SLOTS, 0));
            }
            new ClusterBarrier(main, size, connect).await();
            long array = root.get();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int w = 0; w < WORKERS; w++) {
                int worker = w;
                Thread t = new Thread(() -> {
                    try (ComputeThread ct = cluster.node().newComputeThread()) {
                        String line = churn(ct, array, nodeId, worker, victim, ready, killed, postKill);
                        synchronized (lines) {
                            lines.add(line);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "churn-" + w + "@node" + nodeId);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join(RUN_BOUND.toMillis());
            }
            if (!failures.isEmpty()) {
                failures.getFirst().printStackTrace(System.out);
                System.out.println("FAILED " + failures.getFirst());
                System.out.flush();
                Runtime.getRuntime().halt(1);
            }
            if (victim) {
                System.out.println("NOT KILLED within " + RUN_BOUND);
                System.out.flush();
                Runtime.getRuntime().halt(3);
            }
            lines.add(check(main, array, nodeId));
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

    private static String churn(ComputeThread ct, long array, int nodeId, int worker, boolean victim, Path ready,
                                Path killed, long postKill) throws IOException {
        EpochReclaimer r = new EpochReclaimer(ct, ct.allocator(), OPTIONS);
        ChurnWorkload w = new ChurnWorkload(ct, ct.allocator(), r, array, SLOTS, 50, 5, 1000L * nodeId + worker);
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        long max = 0;
        long ops = 0;
        long killSeenAt = 0;
        long opsAtKill = 0;
        long retiredAtKill = 0;
        long epochAtKill = 0;
        long maxAfterKill = 0;
        while (System.nanoTime() - deadline < 0) {
            w.op();
            ops++;
            long unreclaimed = r.unreclaimedBytes();
            max = Math.max(max, unreclaimed);
            if (killSeenAt != 0) {
                maxAfterKill = Math.max(maxAfterKill, unreclaimed);
            }
            if (victim && worker == 0 && ops == READY_OPS) {
                try {
                    Files.createFile(ready);
                } catch (FileAlreadyExistsException ignored) {
                    // the other worker's file: the signal is the same
                }
            }
            if (!victim && ops % 16 == 0) {
                if (killSeenAt == 0 && Files.exists(killed)) {
                    killSeenAt = System.nanoTime();
                    opsAtKill = ops;
                    retiredAtKill = r.retiredBytes();
                    epochAtKill = r.globalEpoch();
                } else if (killSeenAt != 0 && (r.retiredBytes() - retiredAtKill >= postKill
                        || System.nanoTime() - killSeenAt >= POST_KILL_BOUND.toNanos())) {
                    break;
                }
            }
        }
        String line = "WORKER node=" + nodeId + " worker=" + worker + " ops=" + ops + " reads=" + w.reads()
                + " restarts=" + w.restarts() + " violations=" + w.violations() + " maxUnreclaimed=" + max
                + " maxUnreclaimedAfterKill=" + maxAfterKill + " limit=" + LIMIT + " limitTimeouts=" + r.limitTimeouts()
                + " killSeen=" + (killSeenAt != 0) + " opsAfterKill=" + (ops - opsAtKill)
                + " retiredAfterKill=" + (r.retiredBytes() - retiredAtKill)
                + " epochAdvancesAfterKill=" + (r.globalEpoch() - epochAtKill)
                + " firstViolation=" + String.valueOf(w.firstViolation()).replace(' ', '_');
        r.close();
        return line;
    }

    /** Reads random slots, many times the slot count, with a read-only churn: every node they hold must check out. */
    private static String check(ComputeThread main, long array, int nodeId) {
        EpochReclaimer r = new EpochReclaimer(main, main.allocator(), OPTIONS);
        ChurnWorkload w = new ChurnWorkload(main, main.allocator(), r, array, SLOTS, 100, 0, 77L + nodeId);
        int ops = 40 * SLOTS;
        for (int i = 0; i < ops; i++) {
            w.op();
        }
        r.close();
        return "CHECK node=" + nodeId + " ops=" + ops + " reads=" + w.reads() + " restarts=" + w.restarts()
                + " violations=" + w.violations() + " firstViolation="
                + String.valueOf(w.firstViolation()).replace(' ', '_');
    }
}
