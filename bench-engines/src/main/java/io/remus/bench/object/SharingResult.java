package io.remus.bench.object;

import io.remus.core.fabric.Opcode;

import java.util.Objects;

/**
 * What {@link SharingExperiment} measured for one way. Its counters were checked at the end: each one
 * held exactly the increments applied to it.
 *
 * @param way              the implementation
 * @param increments       increments of all workers
 * @param localPicks       increments whose counter lived on the worker's own node
 * @param elapsedNanos     from the start of the workers to the last one's end
 * @param postedOperations the posted RDMA operations during the run, by {@link Opcode} ordinal: the
 *                         workers', and for {@link SharingWay#DELEGATED} the trustees' too (reads of a
 *                         thread's own node, which take the CPU path, and ALock's local path are not counted;
 *                         writes and atomics there go through the loopback QP and are)
 * @param roundTrips       the round trips the same threads waited for
 */
public record SharingResult(SharingWay way, long increments, long localPicks, long elapsedNanos,
                            long[] postedOperations, long roundTrips) {
    /** Copies the array. */
    public SharingResult {
        Objects.requireNonNull(way, "way");
        postedOperations = postedOperations.clone();
    }

    /** {@return increments per second, all workers together} */
    public double opsPerSecond() {
        return elapsedNanos == 0 ? 0 : increments * 1e9 / elapsedNanos;
    }

    /**
     * @param op an opcode
     * @return posted operations of that kind per increment
     */
    public double postedPerIncrement(Opcode op) {
        return increments == 0 ? 0 : (double) postedOperations[op.ordinal()] / increments;
    }

    /** {@return every posted RDMA operation per increment} */
    public double postedPerIncrement() {
        long sum = 0;
        for (long n : postedOperations) {
            sum += n;
        }
        return increments == 0 ? 0 : (double) sum / increments;
    }

    /** {@return round trips per increment} */
    public double roundTripsPerIncrement() {
        return increments == 0 ? 0 : (double) roundTrips / increments;
    }

    /** {@return the posted operations, by {@link Opcode} ordinal (a copy)} */
    @Override
    public long[] postedOperations() {
        return postedOperations.clone();
    }
}
