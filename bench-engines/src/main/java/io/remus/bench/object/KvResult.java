package io.remus.bench.object;

import io.remus.bench.structure.Ycsb;
import io.remus.core.fabric.Opcode;

import java.util.Objects;

/**
 * What {@link KvExperiment} measured for one way under one workload. Every read was checked as it
 * returned (see {@link KvExperiment}).
 *
 * @param way                the implementation
 * @param workload           the YCSB workload
 * @param reads              reads of all workers
 * @param updates            updates of all workers
 * @param localPicks         operations whose key lived on the worker's own node
 * @param elapsedNanos       from the start of the workers to the last one's end
 * @param postedOperations   the posted RDMA operations during the run, by {@link Opcode} ordinal: the
 *                           workers', and for {@link KvWay#DELEGATED} the trustees' too (word reads of a
 *                           thread's own node, which take the CPU path, and ALock's local path are not counted;
 *                           word writes go through the NIC on every node and are)
 * @param roundTrips         the round trips the same threads waited for
 * @param readRoundTrips     the round trips the workers waited for inside their reads
 * @param updateRoundTrips   the round trips the workers waited for inside their updates
 * @param memoryRoundTrips   the round trips of {@code updateRoundTrips} that the one-sided map's puts spent in
 *                           memory management: the allocator for their new blocks and the epoch reclaimer for
 *                           the old ones (0 for the other ways)
 */
public record KvResult(KvWay way, Ycsb workload, long reads, long updates, long localPicks, long elapsedNanos,
                       long[] postedOperations, long roundTrips, long readRoundTrips, long updateRoundTrips,
                       long memoryRoundTrips) {
    /** Copies the array. */
    public KvResult {
        Objects.requireNonNull(way, "way");
        Objects.requireNonNull(workload, "workload");
        postedOperations = postedOperations.clone();
    }

    /** {@return reads and updates} */
    public long operations() {
        return reads + updates;
    }

    /** {@return operations per second, all workers together} */
    public double opsPerSecond() {
        return elapsedNanos == 0 ? 0 : operations() * 1e9 / elapsedNanos;
    }

    /**
     * @param op an opcode
     * @return posted operations of that kind per operation
     */
    public double postedPerOp(Opcode op) {
        return operations() == 0 ? 0 : (double) postedOperations[op.ordinal()] / operations();
    }

    /** {@return every posted RDMA operation per operation} */
    public double postedPerOp() {
        long sum = 0;
        for (long n : postedOperations) {
            sum += n;
        }
        return operations() == 0 ? 0 : (double) sum / operations();
    }

    /** {@return round trips per operation, the trustees' included} */
    public double roundTripsPerOp() {
        return operations() == 0 ? 0 : (double) roundTrips / operations();
    }

    /** {@return the worker's round trips per read} */
    public double roundTripsPerRead() {
        return reads == 0 ? 0 : (double) readRoundTrips / reads;
    }

    /** {@return the worker's round trips per update} */
    public double roundTripsPerUpdate() {
        return updates == 0 ? 0 : (double) updateRoundTrips / updates;
    }

    /** {@return the round trips per update that the one-sided map's puts spent in memory management} */
    public double memoryRoundTripsPerUpdate() {
        return updates == 0 ? 0 : (double) memoryRoundTrips / updates;
    }

    /** {@return the posted operations, by {@link Opcode} ordinal (a copy)} */
    @Override
    public long[] postedOperations() {
        return postedOperations.clone();
    }
}
