package io.remus.alock.bench;

import io.remus.alock.LockKind;
import io.remus.core.BadArgumentException;

import java.time.Duration;

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
 * @param duration       how long the workers run
 * @param seed           the random seed of the key choice
 */
public record LockBenchmarkConfig(LockKind kind, int nodes, int threadsPerNode, double pLocal, int keys,
                                  long localBudget, long remoteBudget, Duration duration, long seed) {
    /** Validates the configuration. */
    public LockBenchmarkConfig {
        if (kind == null || nodes < 1 || threadsPerNode < 1 || keys < nodes || !(pLocal >= 0 && pLocal <= 1)
                || localBudget < 1 || remoteBudget < 1 || duration == null || duration.isNegative() || duration.isZero()) {
            throw new BadArgumentException("bad lock benchmark configuration: " + nodes + " nodes, " + threadsPerNode
                    + " threads per node, pLocal " + pLocal + ", " + keys + " keys (at least one per node), budgets "
                    + localBudget + "/" + remoteBudget + " (at least 1), duration " + duration + " (positive)");
        }
    }
}
