package io.remus.bench.churn;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.config.NodeRange;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.Reclaimer;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/** Runs {@link ChurnWorkload} on several threads of a poisoning simulated cluster and keeps what each thread saw. */
final class ChurnHarness {
    /** Makes a thread's reclaimer. */
    @FunctionalInterface
    interface ReclaimerFactory {
        Reclaimer make(ComputeThread thread, RemoteAllocator allocator);
    }

    /** What one worker saw. */
    record Worker(long ops, long reads, long replaces, long restarts, long violations, String firstViolation,
                  long maxUnreclaimed, long retiredBytes, long unreclaimedAtEnd, long[] unreclaimedAtQuarters,
                  long limitTimeouts) {
    }

    static final int NODES = 3;
    static final int SLOTS = 16;

    private ChurnHarness() {
    }

    static TestCluster cluster(int segmentBytes) {
        return cluster(segmentBytes, NODES);
    }

    /** @param memoryNodes how many of the {@link #NODES} nodes, from node 0, are memory nodes (all are compute nodes) */
    static TestCluster cluster(int segmentBytes, int memoryNodes) {
        return new TestCluster(SimFabric::new, SimOptions.defaults().withPoisonFreedBlocks(true), NODES,
                b -> b.segmentSize(segmentBytes).segmentCount(2).memoryNodes(new NodeRange(0, memoryNodes - 1)),
                Duration.ofSeconds(120));
    }

    /** @return the slot array, created on node 0 */
    static long array(TestCluster c) {
        try (ComputeThread t = c.thread(0)) {
            return ChurnWorkload.createArray(t, new RemoteAllocator(t), SLOTS, 0);
        }
    }

    /**
     * Runs {@code ops} operations on each of {@code workers} threads (node {@code i % NODES}),
     * stopping every thread early once one found a violation when {@code stopAtViolation} (and no
     * barrier makes them keep in step).
     *
     * @param reclaimEvery call {@link Reclaimer#reclaim()} after every so many operations (0: never)
     * @param started      each worker waits until it is true before its first operation
     */
    static Worker[] run(TestCluster c, long array, int workers, int ops, int readPercent, int yieldPercent,
                        int reclaimEvery, boolean stopAtViolation, ReclaimerFactory factory, BooleanSupplier started)
            throws InterruptedException {
        Worker[] out = new Worker[workers];
        int[] nodes = new int[workers];
        for (int i = 0; i < workers; i++) {
            nodes[i] = i % NODES;
        }
        AtomicBoolean violationSeen = new AtomicBoolean();
        c.runOnThreads(nodes, (index, t) -> {
            RemoteAllocator allocator = new RemoteAllocator(t);
            Reclaimer r = factory.make(t, allocator);
            ChurnWorkload w = new ChurnWorkload(t, allocator, r, array, SLOTS, readPercent, yieldPercent, 17L * index + 3);
            while (!started.getAsBoolean()) {
                Thread.onSpinWait();
            }
            long max = 0;
            long[] quarters = new long[4];
            int done = 0;
            while (done < ops) {
                w.op();
                done++;
                max = Math.max(max, r.unreclaimedBytes());
                if (done % (ops / 4) == 0 && done / (ops / 4) <= 4) {
                    quarters[done / (ops / 4) - 1] = r.unreclaimedBytes();
                }
                if (reclaimEvery > 0 && done % reclaimEvery == 0) {
                    r.reclaim();
                }
                if (w.violations() > 0) {
                    violationSeen.set(true);
                }
                if (stopAtViolation && reclaimEvery == 0 && violationSeen.get()) {
                    break;
                }
            }
            long timeouts = r instanceof EpochReclaimer e ? e.limitTimeouts() : 0;
            out[index] = new Worker(done, w.reads(), w.replaces(), w.restarts(), w.violations(), w.firstViolation(), max,
                    r.retiredBytes(), r.unreclaimedBytes(), quarters, timeouts);
            r.close();
        });
        return out;
    }

    static long total(Worker[] workers, java.util.function.ToLongFunction<Worker> f) {
        long sum = 0;
        for (Worker w : workers) {
            sum += f.applyAsLong(w);
        }
        return sum;
    }

    static String firstViolation(Worker[] workers) {
        for (Worker w : workers) {
            if (w.firstViolation() != null) {
                return w.firstViolation();
            }
        }
        return "none";
    }
}
