package io.remus.bench.replicate;

import io.remus.core.fabric.Opcode;

/**
 * What one fail-over run measured ({@link LogFailOverBenchmark}). Every time is virtual time, in nanoseconds from the
 * crash: the instant the first leader, its last append returned, stopped (and, for
 * {@link LogFailOverConfig.Crash#NODE}, its node stopped answering). The counts are the new leader's compute
 * thread's ({@link io.remus.core.ComputeThread#postedOperations}, {@code roundTrips}, {@code bytesRead},
 * {@code bytesWritten}) over its {@code LogLeader.takeOver} call only.
 *
 * @param config              the run
 * @param detectedNanos       until the new leader's agent (node 1's) first suspected the crashed leader: the poll
 *                            that elected node 1
 * @param allSuspectNanos     until the last survivor's agent first suspected it
 * @param tookOverNanos       until node 1's {@code takeOver} returned: a majority promised its term, the log was
 *                            recovered from them, rewritten under the new term and its commit count flushed
 * @param firstCommitNanos    until the new leader's first append returned, committed on a majority
 * @param takeoverPosted      RDMA operations the new leader posted during {@code takeOver}, indexed by
 *                            {@link Opcode#ordinal()}
 * @param takeoverRoundTrips  round trips the new leader waited for during {@code takeOver}
 * @param takeoverBytesRead   payload bytes of its READs during {@code takeOver}
 * @param takeoverBytesWritten payload bytes of its WRITEs during {@code takeOver}
 * @param recovered           the log's length after {@code takeOver} ({@code LogLeader.appended()})
 * @param rewriteWrites       WRITEs of recovered entries to followers during {@code takeOver}
 * @param falseSuspicions     survivor polls that suspected the leader before it crashed (0 when the suspicion
 *                            count is safe for the poll rate)
 * @param minApplied          the fewest entries a survivor had applied when the run ended: {@code recovered + 1}
 */
public record LogFailOverResult(LogFailOverConfig config, long detectedNanos, long allSuspectNanos, long tookOverNanos,
                                long firstCommitNanos, long[] takeoverPosted, long takeoverRoundTrips,
                                long takeoverBytesRead, long takeoverBytesWritten, long recovered, long rewriteWrites,
                                long falseSuspicions, long minApplied) {
    /**
     * {@return RDMA operations of {@code op} the new leader posted during {@code takeOver}}
     *
     * @param op the kind
     */
    public long takeoverPosted(Opcode op) {
        return takeoverPosted[op.ordinal()];
    }

    /** {@return every RDMA operation the new leader posted during {@code takeOver}} */
    public long takeoverPostedTotal() {
        long all = 0;
        for (long p : takeoverPosted) {
            all += p;
        }
        return all;
    }

    /** {@return detection: from the crash to the new leader's agent suspecting the crashed leader} */
    public long detectionNanos() {
        return detectedNanos;
    }

    /** {@return election and takeover: from that suspicion to {@code takeOver} returning} */
    public long takeoverNanos() {
        return tookOverNanos - detectedNanos;
    }

    /** {@return the first new commit: from {@code takeOver} returning to the first append returning} */
    public long firstAppendNanos() {
        return firstCommitNanos - tookOverNanos;
    }
}
