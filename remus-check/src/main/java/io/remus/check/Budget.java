package io.remus.check;

import java.time.Duration;
import java.util.Objects;

/**
 * How much work one check may do: a wall-clock limit and a limit on configurations (a set of
 * linearized operations with a state) explored. A check that reaches either stops with
 * {@link Verdict#UNKNOWN}, never {@link Verdict#LINEARIZABLE}.
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
     * @param time the wall-clock limit
     * @return that limit and at most 10 million configurations
     */
    public static Budget of(Duration time) {
        return new Budget(time, 10_000_000L);
    }
}
