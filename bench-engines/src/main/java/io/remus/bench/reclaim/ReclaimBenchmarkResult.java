package io.remus.bench.reclaim;

import io.remus.core.fabric.Opcode;

import java.util.List;
import java.util.Objects;

/**
 * What {@link ReclaimBenchmark} measured.
 *
 * @param config                what ran
 * @param ops                   churn operations of all workers
 * @param elapsedNanos          from the start of the workers to the last one's end
 * @param reads                 checked reads
 * @param replaces              replaces that retired a node
 * @param restarts              reads not checked because their guard's lease ran out
 * @param violations            reads that found freed or reused memory (0 for a correct reclaimer)
 * @param firstViolation        what the first of them found, or null
 * @param retiredBytes          bytes retired by all workers
 * @param peakUnreclaimedBytes  the largest sum of the workers' unreclaimed bytes, sampled and at the end
 * @param finalUnreclaimedBytes the sum when the workers stopped
 * @param postedOperations      the workers' RDMA operations during the run, by {@link Opcode} ordinal
 *                              (reads and word writes of a worker's own node take the CPU path and are not counted)
 * @param limitTimeouts         guard closes of {@link ReclaimerKind#EPOCH} whose wait for the limit ran out
 * @param samples               the sum of the workers' unreclaimed bytes over time
 */
public record ReclaimBenchmarkResult(ReclaimBenchmarkConfig config, long ops, long elapsedNanos, long reads,
                                     long replaces, long restarts, long violations, String firstViolation,
                                     long retiredBytes, long peakUnreclaimedBytes, long finalUnreclaimedBytes,
                                     long[] postedOperations, long limitTimeouts, List<Sample> samples) {
    /**
     * One sample.
     *
     * @param millis           milliseconds since the workers started
     * @param unreclaimedBytes the sum of every worker's unreclaimed bytes then
     * @param ops              the operations done by then (published every few operations, so a little behind)
     */
    public record Sample(long millis, long unreclaimedBytes, long ops) {
    }

    /** Copies the arrays and lists. */
    public ReclaimBenchmarkResult {
        Objects.requireNonNull(config, "config");
        postedOperations = postedOperations.clone();
        samples = List.copyOf(samples);
    }

    /** {@return operations per second, all workers together} */
    public double opsPerSecond() {
        return elapsedNanos == 0 ? 0 : ops * 1e9 / elapsedNanos;
    }

    /**
     * @param op an opcode
     * @return the workers' posted operations of that kind per churn operation
     */
    public double postedPerOp(Opcode op) {
        return ops == 0 ? 0 : (double) postedOperations[op.ordinal()] / ops;
    }

    /** {@return every posted RDMA operation per churn operation} */
    public double postedPerOp() {
        long sum = 0;
        for (long n : postedOperations) {
            sum += n;
        }
        return ops == 0 ? 0 : (double) sum / ops;
    }

    /** {@return the workers' posted operations, by {@link Opcode} ordinal (a copy)} */
    @Override
    public long[] postedOperations() {
        return postedOperations.clone();
    }
}
