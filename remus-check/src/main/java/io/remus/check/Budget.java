package io.remus.check;

import java.time.Duration;
import java.util.Objects;

/**
 * How much work one check may do: a wall-clock limit and a limit on configurations (a set of
 * linearized operations with a state) explored. A check that reaches either stops with
 * {@link Verdict#UNKNOWN}, never {@link Verdict#LINEARIZABLE}. The checker keeps every explored
 * configuration (that is the memoization), at roughly 100 to 200 bytes each plus its state, so
 * the configuration limit bounds its memory too. The wall-clock limit is the host's
 * ({@link System#nanoTime()}) on every thread, a virtual-time scheduled one included: the search
 * charges no virtual time, so a virtual clock would never reach the limit.
 *
 * @param time           the wall-clock limit
 * @param configurations the most configurations explored
 */
public record Budget(Duration time, long configurations) {
    /** Validates the limits. */
    public Budget {
        Objects.requireNonNull(time, "time");
        if (time.isNegative() || time.isZero()) {
            throw new IllegalArgumentException("budget time must be positive, got " + time);
        }
        if (configurations <= 0) {
            throw new IllegalArgumentException("budget configurations must be positive, got " + configurations);
        }
    }

    /**
     * A budget of a wall-clock limit and a default bound on configurations.
     *
     * @param time the wall-clock limit
     * @return that limit and at most 2 million configurations (a few hundred MB at most)
     */
    public static Budget of(Duration time) {
        return new Budget(time, 2_000_000L);
    }
}
