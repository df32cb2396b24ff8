package io.remus.core.config;

import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.Objects;

/**
 * The timeouts a configuration accepts: positive, at most {@link #MAX_FINITE}, or exactly
 * {@link #FOREVER}. Every wait in the project turns its timeout into a deadline with
 * {@code System.nanoTime() + timeout.toNanos()}; a bound on finite timeouts keeps that from
 * overflowing, and waiting without end has to be asked for by name, not by a huge number.
 */
public final class Timeouts {
    /** The longest finite timeout: one day. */
    public static final Duration MAX_FINITE = Duration.ofDays(1);

    /**
     * Wait without end. Held as about 73 years, so that every deadline computation still works
     * without overflow; {@link #isForever} recognizes it. Spelled {@value #FOREVER_TEXT} in
     * configuration files, arguments and the environment.
     */
    public static final Duration FOREVER = Duration.ofNanos(Long.MAX_VALUE / 4);

    /** How {@link #FOREVER} is written as a configuration value. */
    public static final String FOREVER_TEXT = "forever";

    private Timeouts() {
    }

    /**
     * Tells whether a timeout is unbounded.
     *
     * @param timeout a validated timeout
     * @return whether it is {@link #FOREVER}
     */
    public static boolean isForever(Duration timeout) {
        return FOREVER.equals(Objects.requireNonNull(timeout, "timeout"));
    }

    /**
     * Checks a timeout.
     *
     * @param timeout a timeout
     * @param name    what it configures, for the message (the builder method, and the
     *                configuration key where there is one)
     * @return {@code timeout}
     * @throws NullPointerException if {@code timeout} is null
     * @throws BadArgumentException naming {@code name} and the value when it is zero, negative,
     *                              or longer than {@link #MAX_FINITE} without being {@link #FOREVER}
     */
    public static Duration require(Duration timeout, String name) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(timeout, name);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new BadArgumentException(name + " must be positive, got " + timeout);
        }
        if (timeout.compareTo(MAX_FINITE) > 0 && !isForever(timeout)) {
            throw new BadArgumentException(name + " must be at most " + MAX_FINITE + " (or Timeouts.FOREVER, '"
                    + FOREVER_TEXT + "', to wait without end), got " + timeout);
        }
        return timeout;
    }

    /**
     * @param key   the configuration key, for the message
     * @param value milliseconds, or {@value #FOREVER_TEXT}
     * @return the timeout
     * @throws BadArgumentException naming {@code key} and {@code value} when {@code value} is
     *                              neither, or out of {@link #require}'s range
     */
    static Duration parseMillis(String key, String value) {
        String t = value.strip();
        if (t.equalsIgnoreCase(FOREVER_TEXT)) {
            return FOREVER;
        }
        long millis;
        try {
            millis = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new BadArgumentException(key + ": '" + value + "' is not a number of milliseconds or '" + FOREVER_TEXT + "'");
        }
        if (millis <= 0 || millis > MAX_FINITE.toMillis()) {
            throw new BadArgumentException(key + ": " + value + " ms is not in 1.." + MAX_FINITE.toMillis()
                    + " (use '" + FOREVER_TEXT + "' to wait without end)");
        }
        return Duration.ofMillis(millis);
    }
}
