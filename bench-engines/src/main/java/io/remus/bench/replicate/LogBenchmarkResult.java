package io.remus.bench.replicate;

import io.remus.bench.stats.LatencySummary;
import io.remus.core.fabric.Opcode;

/**
 * What one run of the replicated-log benchmark measured, every time virtual time. The counts are the leader's
 * compute thread's ({@link io.remus.core.ComputeThread#postedOperations}, {@code roundTrips}, {@code bytesWritten},
 * {@code bytesRead}) over the measured appends only: the leader's open and its final commit flush are left out.
 *
 * @param config       the run
 * @param latency      the replication latency of each append: from the call of {@code LogLeader.append} to its
 *                     return (a majority holds the entry), in nanoseconds of virtual time
 * @param elapsedNanos virtual time from the first append's call to the last one's return
 * @param posted       RDMA operations the leader posted during the appends, indexed by {@link Opcode#ordinal()}
 * @param roundTrips   round trips the leader waited for during the appends
 * @param bytesWritten payload bytes of the leader's RDMA WRITEs during the appends
 * @param bytesRead    payload bytes of the leader's RDMA READs during the appends
 * @param committed    entries the leader knew committed after its final commit flush
 * @param minApplied   the fewest entries any member had applied when the run ended (every member applies every
 *                     committed entry; the run fails when one has not within its bound)
 */
public record LogBenchmarkResult(LogBenchmarkConfig config, LatencySummary latency, long elapsedNanos, long[] posted,
                                 long roundTrips, long bytesWritten, long bytesRead, long committed, long minApplied) {
    /**
     * {@return posted operations of {@code op} per append}
     *
     * @param op the kind
     */
    public double postedPerAppend(Opcode op) {
        return posted[op.ordinal()] / (double) config.appends();
    }

    /** {@return every posted operation per append} */
    public double postedPerAppend() {
        long all = 0;
        for (long p : posted) {
            all += p;
        }
        return all / (double) config.appends();
    }

    /** {@return round trips per append} */
    public double roundTripsPerAppend() {
        return roundTrips / (double) config.appends();
    }

    /** {@return payload bytes written per append} */
    public double bytesWrittenPerAppend() {
        return bytesWritten / (double) config.appends();
    }

    /** {@return payload bytes READ per append} */
    public double bytesReadPerAppend() {
        return bytesRead / (double) config.appends();
    }

    /** {@return commit throughput: appends per second of virtual time, one append at a time} */
    public double appendsPerSecond() {
        return elapsedNanos == 0 ? 0 : config.appends() * 1e9 / elapsedNanos;
    }
}
