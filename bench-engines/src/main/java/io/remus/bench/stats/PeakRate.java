package io.remus.bench.stats;

/**
 * The best message rate of a bandwidth run, bounded by what really happened. perftest's "BW peak"
 * is the best {@code (j - i + 1) / (completed[j] - posted[i])} over all pairs of operations; this
 * keeps its idea (a span runs from a post to a later completion, so a burst of completions of
 * long-queued operations cannot look fast) in memory fixed up front. Two kinds of span end at each
 * measured completion:
 * <ul>
 *   <li>the whole run so far, from the first post: every completion so far was posted inside it.
 *       Over a whole iteration-mode run this is at least the average rate (whose clock starts
 *       before the first post), so the peak is never below the average, as in perftest;</li>
 *   <li>the last {@code M} completions, {@code M} four times the most operations in flight, from the
 *       post of the oldest of them. With one queue pair all {@code M} were posted inside the span
 *       (a queue pair completes in posting order). With {@code Q} queue pairs of depth {@code D},
 *       the other queue pairs' completions may include operations posted before the span began,
 *       but only those in flight at that moment, at most {@code (Q - 1) * D}; so {@code M - (Q - 1) * D}
 *       are counted.</li>
 * </ul>
 * Either way the result never exceeds the rate the device sustained over some span.
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
    private boolean anyPosted;
    private long firstPost;
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
        this.counted = spanStarts.length - (queuePairs - 1) * depth;
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
        if (!anyPosted) {
            anyPosted = true;
            firstPost = nanos;
        }
    }

    /**
     * Records the completion of a queue pair's oldest {@code operations} in flight, all seen at
     * {@code nanos} (one completion that stands for several requests, as with CQ moderation).
     *
     * @param queuePair  the queue pair
     * @param operations how many of its operations completed, positive
     * @param nanos      a {@link System#nanoTime()} reading taken after the completion was polled
     * @param measure    whether the spans ending here count toward the peak (false outside a duration
     *                   run's window)
     * @throws IllegalStateException    when the queue pair has fewer than {@code operations} in flight
     * @throws IllegalArgumentException when {@code operations} is not positive
     */
    public void completed(int queuePair, int operations, long nanos, boolean measure) {
        if (operations < 1) {
            throw new IllegalArgumentException("operations must be positive, got " + operations);
        }
        if (tail[queuePair] - head[queuePair] < operations) {
            throw new IllegalStateException("queue pair " + queuePair + " has " + (tail[queuePair] - head[queuePair])
                    + " operations in flight, not " + operations);
        }
        for (int k = 0; k < operations; k++) {
            spanStarts[(int) (completed++ % spanStarts.length)] = postTimes[queuePair * depth
                    + (int) (head[queuePair]++ % depth)];
        }
        if (!measure) {
            return;
        }
        // Of the spans that end at this instant, the one of the last operation starts latest: it is the
        // shortest for the same count, so it alone can be the best of them.
        long whole = nanos - firstPost;
        if (whole > 0) {
            best = Math.max(best, completed * 1e9 / whole);
        }
        if (completed >= spanStarts.length) {
            long span = nanos - spanStarts[(int) (completed % spanStarts.length)];
            if (span > 0) {
                best = Math.max(best, counted * 1e9 / span);
            }
        }
    }

    /** @return the best messages per second over a span, or -1 when no measured completion ended one */
    public double bestMessagesPerSecond() {
        return best;
    }
}
