package io.remus.bench.index;

import io.remus.bench.stats.LatencySummary;
import io.remus.bench.structure.Cost;
import io.remus.bench.structure.DsRun;
import io.remus.core.fabric.Opcode;

import java.util.Objects;

/**
 * What one run of the index benchmark measured, every time virtual time, over the measured operations only (the
 * load is left out), and beside it the unreplicated hash map's run of the same workload.
 *
 * <p>The RDMA counts are the shard leaders' compute threads' ({@link io.remus.core.ComputeThread#postedOperations},
 * {@code roundTrips}, {@code bytesWritten}), summed over the leaders: the log replication each operation costs. The
 * client's side is its RPCs: {@code attempts} requests sent (one WRITE_WITH_IMMEDIATE each, answered by one), one
 * network round trip each; the followers make no RDMA operation.
 *
 * @param config         the run
 * @param elapsedNanos   virtual time from the clients' release to the last client's last answer
 * @param reads          gets measured
 * @param found          of them, those that found a value
 * @param updates        puts measured
 * @param replaced       of them, those that replaced a value
 * @param readLatency    each get's latency at its client, from the call to the answer, in nanoseconds
 * @param updateLatency  each put's latency at its client
 * @param allLatency     every operation's latency
 * @param leaderPosted   RDMA operations the leaders posted during the measured operations, by {@link Opcode#ordinal()}
 * @param leaderRoundTrips round trips the leaders waited for
 * @param leaderBytesWritten payload bytes of the leaders' WRITEs
 * @param appends        log entries the leaders appended
 * @param attempts       requests the clients sent, first tries and retries
 * @param notLeaderAnswers answers that named another leader
 * @param retryAnswers   answers that asked the client to retry
 * @param map            the hash map's run of the same workload, model and seed
 */
public record IndexBenchmarkResult(IndexBenchmarkConfig config, long elapsedNanos, long reads, long found, long updates,
                                   long replaced, LatencySummary readLatency, LatencySummary updateLatency,
                                   LatencySummary allLatency, long[] leaderPosted, long leaderRoundTrips,
                                   long leaderBytesWritten, long appends, long attempts, long notLeaderAnswers,
                                   long retryAnswers, DsRun map) implements IndexRunCounts {
    /** Copies the counts. */
    public IndexBenchmarkResult {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(map, "map");
        leaderPosted = leaderPosted.clone();
    }

    /** {@return the hash map's operations per second over the index's} */
    public double mapOverIndexThroughput() {
        double index = opsPerSecond();
        return index == 0 ? 0 : map.result().opsPerSecond() / index;
    }

    /** {@return the index's median latency over the hash map's} */
    public double indexOverMapMedian() {
        long m = map.all().median();
        return m == 0 ? 0 : allLatency.median() / (double) m;
    }

    /**
     * {@return the hash map's compute-thread count {@code cost} per operation}
     *
     * @param cost the counter
     */
    public double mapPerOp(Cost cost) {
        return map.result().perOp(cost);
    }

    /** {@return the leaders' posted operations (a copy)} */
    @Override
    public long[] leaderPosted() {
        return leaderPosted.clone();
    }
}
