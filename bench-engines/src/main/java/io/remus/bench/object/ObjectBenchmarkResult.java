package io.remus.bench.object;

import io.remus.core.fabric.Opcode;

import java.util.Objects;

/**
 * What {@link ObjectBenchmark} measured.
 *
 * @param config            what ran
 * @param ops               operations of all workers, the stalled one's included
 * @param elapsedNanos      from the start of the workers to the last one's end
 * @param postedOperations  the workers' posted RDMA operations during the run, by {@link Opcode} ordinal
 *                          (the lock's included; reads and word writes of a worker's own node that take the
 *                          CPU path, and ALock's local path, are not counted)
 * @param stallNanos        how long the stalled worker was stopped (0 without a stall)
 * @param othersDuringStall operations the other workers completed while it was stopped
 * @param stalledOps        operations of the stalled worker (its stalled one included)
 */
public record ObjectBenchmarkResult(ObjectBenchmarkConfig config, long ops, long elapsedNanos, long[] postedOperations,
                                    long stallNanos, long othersDuringStall, long stalledOps) {
    /** Copies the array. */
    public ObjectBenchmarkResult {
        Objects.requireNonNull(config, "config");
        postedOperations = postedOperations.clone();
    }

    /** {@return operations per second, all workers together} */
    public double opsPerSecond() {
        return elapsedNanos == 0 ? 0 : ops * 1e9 / elapsedNanos;
    }

    /** {@return the other workers' operations per second while one was stalled (0 without a stall)} */
    public double othersPerSecondDuringStall() {
        return stallNanos == 0 ? 0 : othersDuringStall * 1e9 / stallNanos;
    }

    /**
     * @param op an opcode
     * @return the workers' posted operations of that kind per operation
     */
    public double postedPerOp(Opcode op) {
        return ops == 0 ? 0 : (double) postedOperations[op.ordinal()] / ops;
    }

    /** {@return every posted RDMA operation per operation} */
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
