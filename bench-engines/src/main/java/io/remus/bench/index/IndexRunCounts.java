package io.remus.bench.index;

import io.remus.bench.stats.LatencySummary;
import io.remus.core.fabric.Opcode;

/**
 * The counts of one run of the replicated index's benchmark, in one JVM ({@link IndexBenchmarkResult}) or one
 * process per node ({@link ClusterIndexBenchmarkResult}), and what is derived from them per index operation.
 */
public interface IndexRunCounts {
    /** {@return the run's configuration} */
    IndexBenchmarkConfig config();

    /** {@return the measured time, in nanoseconds} */
    long elapsedNanos();

    /** {@return gets measured} */
    long reads();

    /** {@return of the gets, those that found a value} */
    long found();

    /** {@return puts measured} */
    long updates();

    /** {@return of the puts, those that replaced a value} */
    long replaced();

    /** {@return each get's latency at its client, in nanoseconds} */
    LatencySummary readLatency();

    /** {@return each put's latency at its client, in nanoseconds} */
    LatencySummary updateLatency();

    /** {@return every operation's latency, in nanoseconds} */
    LatencySummary allLatency();

    /** {@return RDMA operations the leaders posted during the measured operations, by {@link Opcode#ordinal()} (a copy)} */
    long[] leaderPosted();

    /** {@return round trips the leaders waited for} */
    long leaderRoundTrips();

    /** {@return payload bytes of the leaders' WRITEs} */
    long leaderBytesWritten();

    /** {@return log entries the leaders appended} */
    long appends();

    /** {@return requests the clients sent, first tries and retries} */
    long attempts();

    /** {@return answers that named another leader} */
    long notLeaderAnswers();

    /** {@return answers that asked the client to retry} */
    long retryAnswers();

    /** {@return the measured operations} */
    default long ops() {
        return reads() + updates();
    }

    /** {@return operations per second, all clients together, over {@link #elapsedNanos()}} */
    default double opsPerSecond() {
        return elapsedNanos() == 0 ? 0 : ops() * 1e9 / elapsedNanos();
    }

    /**
     * {@return the leaders' posted operations of {@code op} per index operation}
     *
     * @param op the kind
     */
    default double leaderPostedPerOp(Opcode op) {
        return perOp(leaderPosted()[op.ordinal()]);
    }

    /** {@return every operation the leaders posted, per index operation} */
    default double leaderPostedPerOp() {
        long all = 0;
        for (long p : leaderPosted()) {
            all += p;
        }
        return perOp(all);
    }

    /** {@return the leaders' round trips per index operation} */
    default double leaderRoundTripsPerOp() {
        return perOp(leaderRoundTrips());
    }

    /** {@return the leaders' WRITE payload bytes per index operation} */
    default double leaderBytesWrittenPerOp() {
        return perOp(leaderBytesWritten());
    }

    /** {@return log appends per index operation} */
    default double appendsPerOp() {
        return perOp(appends());
    }

    /** {@return the clients' requests (RPC round trips) per index operation} */
    default double rpcsPerOp() {
        return perOp(attempts());
    }

    /** {@return network round trips per index operation: the client's RPCs and, inside them, the leader's} */
    default double networkRoundTripsPerOp() {
        return rpcsPerOp() + leaderRoundTripsPerOp();
    }

    /**
     * {@return {@code n} per measured operation, 0 when none was measured}
     *
     * @param n a count over the measured operations
     */
    default double perOp(long n) {
        long ops = ops();
        return ops == 0 ? 0 : n / (double) ops;
    }
}
