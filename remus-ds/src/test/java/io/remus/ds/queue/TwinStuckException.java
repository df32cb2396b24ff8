package io.remus.ds.queue;

import java.time.Duration;

/**
 * A broken twin's call that found no way through within {@link #BOUND}: a twin's wrong step can leave its queue in a
 * state the twin's loops never leave. The caller leaves the call pending in its history and stops, so that the round
 * ends and its history is checked as recorded.
 */
final class TwinStuckException extends RuntimeException {
    /** How long one call of a broken twin may loop. */
    static final Duration BOUND = Duration.ofSeconds(5);
    private static final long serialVersionUID = 1L;

    TwinStuckException() {
        super("the broken twin's call made no progress within " + BOUND);
    }

    /** @return the deadline of a call starting now, for {@link #check} */
    static long deadline() {
        return System.nanoTime() + BOUND.toNanos();
    }

    /**
     * @param deadline the call's {@link #deadline()}
     * @throws TwinStuckException when it passed
     */
    static void check(long deadline) {
        if (System.nanoTime() - deadline > 0) {
            throw new TwinStuckException();
        }
    }
}
