package io.remus.bench.index;

import io.remus.bench.stats.LatencySummary;
import io.remus.core.fabric.Opcode;

import java.util.List;
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
 * @param failover         what leader changes and dead nodes the run met
 */
public record ClusterIndexBenchmarkResult(IndexBenchmarkConfig config, long elapsedNanos, long reads, long found,
                                          long updates, long replaced, LatencySummary readLatency,
                                          LatencySummary updateLatency, LatencySummary allLatency, long[] leaderPosted,
                                          long leaderRoundTrips, long leaderBytesWritten, long appends, long attempts,
                                          long notLeaderAnswers, long retryAnswers, Failover failover)
        implements IndexRunCounts {
    /** Copies the counts. */
    public ClusterIndexBenchmarkResult {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(failover, "failover");
        leaderPosted = leaderPosted.clone();
    }

    /** {@return the leaders' posted operations (a copy)} */
    @Override
    public long[] leaderPosted() {
        return leaderPosted.clone();
    }

    /**
     * The leader changes a run met: with fail-over on ({@link ClusterIndexBenchmark}), a leader's death during the
     * measured operations makes the survivors of its group take its shards over, and the run ends without it.
     *
     * @param takeovers            shards taken over during the measured operations, summed over the nodes (the
     *                             first leaders' takeovers before them are not counted)
     * @param term                 the highest term a node led in at the end
     * @param recoveredEntries     log entries the takeovers recovered from the members they read
     * @param caughtUpFollowers    detached followers a leader caught up and attached again during the measured
     *                             operations (each costs READs and WRITEs counted with the leaders')
     * @param longestDisruptedNanos the longest measured operation that met an unanswered attempt (a call that timed
     *                             out or found its member gone), from its call to its answer: the time a client
     *                             took to reach a new leader after the old one died; 0 when none met one
     * @param retriedOperations    operations a client sent again, under a new sequence, after no leader answered
     *                             within {@link ClusterIndexBenchmark#OPERATION_SLICE}
     * @param absentNodes          nodes that did not finish the run (their process died, and their group's members
     *                             on node 0 suspect them): their counts are missing from the report
     */
    public record Failover(long takeovers, long term, long recoveredEntries, long caughtUpFollowers,
                           long longestDisruptedNanos,
                           long retriedOperations, List<Integer> absentNodes) {
        /** Copies the nodes. */
        public Failover {
            absentNodes = List.copyOf(absentNodes);
        }

        /**
         * {@return whether any leader changed, any follower was caught up, any attempt went unanswered or any node
         *          went missing during the measured operations}
         */
        public boolean happened() {
            return takeovers > 0 || caughtUpFollowers > 0 || !absentNodes.isEmpty() || longestDisruptedNanos > 0;
        }
    }
}
