package io.remus.bench.lock;

import io.remus.alock.kind.LockKind;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;

import java.time.Duration;
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
}
