package io.remus.bench.index;

import io.remus.bench.stats.LatencySummary;
import io.remus.core.fabric.Opcode;

import java.util.Objects;

/**
 * What one run of the index benchmark with one process per node ({@link ClusterIndexBenchmark}) measured, over the
 * measured operations only (the load is left out), summed over every node. Times are each process's own clock.
 *
 * <p>The RDMA counts are the shard leaders' server compute threads' ({@link io.remus.core.ComputeThread#postedOperations},
 * {@code roundTrips}, {@code bytesWritten}), summed over the leaders: the log replication each operation costs. The
 * clients' side is their RPCs: {@code attempts} requests sent, one network round trip each.
 *
 * @param config           the run (its {@code clients} is the cluster's node count: one client per node)
 * @param elapsedNanos     the longest of the nodes' times from their release to their client's last answer
 * @param reads            gets measured
 * @param found            of them, those that found a value
 * @param updates          puts measured
 * @param replaced         of them, those that replaced a value
 * @param readLatency      each get's latency at its client, from the call to the answer, in nanoseconds
 * @param updateLatency    each put's latency at its client
 * @param allLatency       every operation's latency
 * @param leaderPosted     RDMA operations the leaders posted during the measured operations, by {@link Opcode#ordinal()}
 * @param leaderRoundTrips round trips the leaders waited for
 * @param leaderBytesWritten payload bytes of the leaders' WRITEs
 * @param appends          log entries the leaders appended
 * @param attempts         requests the clients sent, first tries and retries
 * @param notLeaderAnswers answers that named another leader
 * @param retryAnswers     answers that asked the client to retry
 */
public record ClusterIndexBenchmarkResult(IndexBenchmarkConfig config, long elapsedNanos, long reads, long found,
                                          long updates, long replaced, LatencySummary readLatency,
                                          LatencySummary updateLatency, LatencySummary allLatency, long[] leaderPosted,
                                          long leaderRoundTrips, long leaderBytesWritten, long appends, long attempts,
                                          long notLeaderAnswers, long retryAnswers) implements IndexRunCounts {
    /** Copies the counts. */
    public ClusterIndexBenchmarkResult {
        Objects.requireNonNull(config, "config");
        leaderPosted = leaderPosted.clone();
    }

    /** {@return the leaders' posted operations (a copy)} */
    @Override
    public long[] leaderPosted() {
        return leaderPosted.clone();
    }
}
