package io.remus.verbs;

import java.time.Duration;
import java.util.Objects;

/** Deadlines from the caller's timeouts, for every wait of the verbs API. */
final class Deadlines {
    /** About 73 years: longer timeouts wait this long, so that no deadline computation overflows. */
    static final long MAX_NANOS = Long.MAX_VALUE / 4;

    private Deadlines() {
    }

    /**
     * @param timeout how long from now; zero or negative means the deadline has passed
     * @param name    the parameter's name, for the null check
     * @return {@code System.nanoTime()} plus the timeout, taken as 0 when negative and saturated at {@link #MAX_NANOS} (compare
     *         with {@code deadline - System.nanoTime()}, never with {@code <} on the values)
     * @throws NullPointerException if {@code timeout} is null
     */
    static long after(Duration timeout, String name) {
        Objects.requireNonNull(timeout, name);
        long nanos = timeout.isNegative() ? 0 : timeout.compareTo(Duration.ofNanos(MAX_NANOS)) > 0 ? MAX_NANOS : timeout.toNanos();
        return System.nanoTime() + nanos;
    }
}
