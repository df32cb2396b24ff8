package io.remus.tools.stats;

/**
 * The best message rate of a bandwidth run, bounded by what really happened. perftest's "BW peak"
 * is the best {@code (j - i + 1) / (completed[j] - posted[i])} over all pairs of operations; this
 * keeps its idea (a span runs from a post to a later completion, so a burst of completions of
 * long-queued operations cannot look fast) in memory fixed up front: spans of the last {@code M}
 * completions, {@code M} four times the most operations in flight, each from the post of its
 * first operation to its last completion. Completions of other queue pairs may interleave, so
 * only the {@code M - inFlight + 1} operations that must have been posted inside the span are
 * counted: the result never exceeds the rate the device sustained over some span.
 *
 * <p>Queue pairs complete in posting order (RC). Not thread-safe; nothing is allocated after
 * construction.
 */
public final class PeakRate {
    private final int depth;
    private final long[] postTimes;
    private final long[] head;
    private final long[] tail;
    private final long[] spanStarts;
    private final int counted;
    private long completed;
    private double best = -1;

    /**
     * @param queuePairs the queue pairs, positive
     * @param depth      the most operations in flight per queue pair, positive
     */
    public PeakRate(int queuePairs, int depth) {
        if (queuePairs < 1 || depth < 1) {
            throw new IllegalArgumentException("queue pairs and depth must be positive, got " + queuePairs + ", " + depth);
        }
        this.depth = depth;
        this.postTimes = new long[queuePairs * depth];
        this.head = new long[queuePairs];
        this.tail = new long[queuePairs];
        int inFlight = queuePairs * depth;
        this.spanStarts = new long[4 * inFlight];
        this.counted = spanStarts.length - inFlight + 1;
    }

    /**
     * Records a post.
     *
     * @param queuePair the queue pair
     * @param nanos     a {@link System#nanoTime()} reading taken before the post
     * @throws IllegalStateException when the queue pair already has {@code depth} operations in flight
     */
    public void posted(int queuePair, long nanos) {
        if (tail[queuePair] - head[queuePair] >= depth) {
            throw new IllegalStateException("queue pair " + queuePair + " already has " + depth + " operations in flight");
        }
        postTimes[queuePair * depth + (int) (tail[queuePair]++ % depth)] = nanos;
    }

    /**
     * Records the completion of a queue pair's oldest operation in flight.
     *
     * @param queuePair the queue pair
     * @param nanos     a {@link System#nanoTime()} reading taken after the completion was polled
     * @param measure   whether the span ending here counts toward the peak (false outside a duration
     *                  run's window)
     * @throws IllegalStateException when the queue pair has nothing in flight
     */
    public void completed(int queuePair, long nanos, boolean measure) {
        if (tail[queuePair] == head[queuePair]) {
            throw new IllegalStateException("queue pair " + queuePair + " has nothing in flight");
        }
        long postedAt = postTimes[queuePair * depth + (int) (head[queuePair]++ % depth)];
        spanStarts[(int) (completed++ % spanStarts.length)] = postedAt;
        if (measure && completed >= spanStarts.length) {
            long span = nanos - spanStarts[(int) (completed % spanStarts.length)];
            if (span > 0) {
                best = Math.max(best, counted * 1e9 / span);
            }
        }
    }

    /** @return the best messages per second over a full span, or -1 when no span completed */
    public double bestMessagesPerSecond() {
        return best;
    }
}
