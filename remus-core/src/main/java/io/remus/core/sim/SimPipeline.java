package io.remus.core.sim;

/**
 * A simulated NIC stage that serves one request at a time, in the order they reach it, each keeping it
 * busy for a time given in picoseconds: a request arriving at {@code arrival} starts at
 * {@code max(arrival, free)} and moves {@code free} on by its busy time. Picoseconds keep the rate exact
 * for busy times below a nanosecond's multiple (215 million requests per second is 4,651 ps each);
 * the start it returns is rounded up to whole nanoseconds, its free time is not.
 *
 * <p>Thread-safe; a reservation holds a private lock for a few arithmetic steps and never waits.
 */
final class SimPipeline {
    private final Object lock = new Object();
    /** Whether any request has been served; before that the stage is free at any time. */
    private boolean used;
    /** When the stage falls free: whole nanoseconds ... */
    private long freeNanos;
    /** ... plus these picoseconds, 0 to 999. */
    private long freePicos;

    /**
     * Reserves the stage for a request arriving at {@code arrival}.
     *
     * @param arrival   when the request reaches the stage, in nanoseconds
     * @param busyPicos how long it keeps the stage busy, in picoseconds, not negative
     * @return when the request starts: {@code arrival}, or later when the stage is busy then
     */
    long reserve(long arrival, long busyPicos) {
        synchronized (lock) {
            long startNanos;
            long startPicos;
            if (!used || freeNanos - arrival < 0 || (freeNanos == arrival && freePicos == 0)) {
                startNanos = arrival;
                startPicos = 0;
            } else {
                startNanos = freeNanos;
                startPicos = freePicos;
            }
            long end = startPicos + busyPicos;
            freeNanos = startNanos + end / 1000;
            freePicos = end % 1000;
            used = true;
            return startPicos == 0 ? startNanos : startNanos + 1;
        }
    }
}
