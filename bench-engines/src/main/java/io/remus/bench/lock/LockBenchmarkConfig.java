package io.remus.bench.lock;

import io.remus.alock.kind.LockKind;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What {@link LockBenchmark} runs.
 *
 * @param kind           the lock kind
 * @param nodes          cluster nodes in this JVM, each a memory and a compute node, at least 1
 * @param threadsPerNode worker threads per node, at least 1
 * @param pLocal         probability, 0..1, that an operation picks a key whose lock lives on the
 *                       worker's own node (otherwise one on another node, when there is one)
 * @param keys           locks in the table, at least {@code nodes}
 * @param localBudget    ALock's local cohort budget
 * @param remoteBudget   ALock's remote cohort budget
 * @param duration       how long the workers run: positive, at most {@link Timeouts#MAX_FINITE}
 * @param seed           the random seed of the key choice
 * @param criticalSectionOps in each critical section, this many RDMA READs and as many WRITEs of a word on the
 *                       next node, 0..{@value #MAX_CRITICAL_SECTION_OPS} (0: an empty critical section, the ALock
 *                       paper's workload)
 */
public record LockBenchmarkConfig(LockKind kind, int nodes, int threadsPerNode, double pLocal, int keys,
                                  long localBudget, long remoteBudget, Duration duration, long seed,
                                  int criticalSectionOps) {
    /** The most READs (and WRITEs) one critical section makes. */
    public static final int MAX_CRITICAL_SECTION_OPS = 64;

    /**
     * Validates the configuration.
     *
     * @throws NullPointerException when {@code kind} or {@code duration} is null
     * @throws BadArgumentException naming the values when one is out of range
     */
    public LockBenchmarkConfig {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(duration, "duration");
        if (nodes < 1 || threadsPerNode < 1 || keys < nodes || !(pLocal >= 0 && pLocal <= 1)
                || localBudget < 1 || remoteBudget < 1 || duration.isNegative() || duration.isZero()
                || duration.compareTo(Timeouts.MAX_FINITE) > 0 || criticalSectionOps < 0
                || criticalSectionOps > MAX_CRITICAL_SECTION_OPS) {
            throw new BadArgumentException("bad lock benchmark configuration: " + nodes + " nodes, " + threadsPerNode
                    + " threads per node, pLocal " + pLocal + ", " + keys + " keys (at least one per node), budgets "
                    + localBudget + "/" + remoteBudget + " (at least 1), duration " + duration + " (positive, at most "
                    + Timeouts.MAX_FINITE + "), critical section ops " + criticalSectionOps + " (0.."
                    + MAX_CRITICAL_SECTION_OPS + ")");
        }
    }

    /** A configuration with an empty critical section (the ALock paper's workload); see the canonical constructor. */
    public LockBenchmarkConfig(LockKind kind, int nodes, int threadsPerNode, double pLocal, int keys, long localBudget,
                               long remoteBudget, Duration duration, long seed) {
        this(kind, nodes, threadsPerNode, pLocal, keys, localBudget, remoteBudget, duration, seed, 0);
    }

    /**
     * Memory node 0 gives a cluster run of these points, warm-ups included (the runs' tables stay
     * allocated until the cluster closes): per point the table's words and its index (16 bytes a key),
     * node 0's share of the lock words (136 bytes each), the results and the queue nodes, on a 1 MiB
     * base, rounded up to a power of two.
     *
     * @param configs the measured points
     * @return the segment size to ask for when the join arguments name none
     */
    public static long clusterSegmentBytes(List<LockBenchmarkConfig> configs) {
        long total = 1 << 20;
        for (LockBenchmarkConfig c : configs) {
            long perPoint = 16L * c.keys() + 136L * ((c.keys() + c.nodes() - 1) / c.nodes())
                    + (c.threadsPerNode() + 2L) * (64 << 10);
            total += 2 * perPoint;
        }
        return Long.highestOneBit(total - 1) << 1;
    }

    /**
     * One unreported run per lock kind before the measured ones, so the JIT has compiled every kind's paths:
     * in the order the kinds first appear, at the first point's parameters, with the next seed.
     *
     * @param configs the measured points, at least one
     * @param warmup  how long each warm-up runs
     * @return the warm-up runs
     */
    public static List<LockBenchmarkConfig> warmUps(List<LockBenchmarkConfig> configs, Duration warmup) {
        LockBenchmarkConfig first = configs.getFirst();
        List<LockKind> done = new ArrayList<>();
        List<LockBenchmarkConfig> warmUps = new ArrayList<>();
        for (LockBenchmarkConfig c : configs) {
            if (!done.contains(c.kind())) {
                done.add(c.kind());
                warmUps.add(new LockBenchmarkConfig(c.kind(), first.nodes(), first.threadsPerNode(), first.pLocal(),
                        first.keys(), first.localBudget(), first.remoteBudget(), warmup, first.seed() + 1,
                        first.criticalSectionOps()));
            }
        }
        return warmUps;
    }
}
