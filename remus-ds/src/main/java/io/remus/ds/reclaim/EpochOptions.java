package io.remus.ds.reclaim;

import io.remus.core.BadArgumentException;
import io.remus.core.config.Timeouts;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Knobs of {@link EpochReclaimer}.
 *
 * @param lease      how long an announcement holds the epoch back after {@link Reclaimer#enter()}:
 *                   a guard open longer is {@linkplain Guard#valid() invalid} and no longer protects;
 *                   {@link Timeouts#FOREVER} for plain epochs (a stalled thread then holds every
 *                   reclamation back for ever)
 * @param clockSkew  the most that two nodes' {@code clock}s differ by (0 for processes on one host); a
 *                   thread counts another's lease as run out only {@code clockSkew} after its deadline
 * @param passBytes  unreclaimed bytes at which closing a guard runs a reclamation pass (after a pass
 *                   that left this much, the next one waits until a quarter of it more was retired)
 * @param limitBytes unreclaimed bytes at which closing a guard waits, passing again and again, until
 *                   fewer are left or {@code limitWait} is over; {@link Long#MAX_VALUE} for no limit
 * @param limitWait  the longest such a wait lasts (then the close returns, and
 *                   {@link EpochReclaimer#limitTimeouts()} counts it)
 * @param slots      announcement slots per memory node's table (every thread of the nodes that share the
 *                   table takes one); read only by the reclaimer that creates a table
 * @param clock      the clock leases are measured with, in milliseconds, the same on every node up to
 *                   {@code clockSkew} and never stepped back ({@link System#currentTimeMillis()} by default)
 */
public record EpochOptions(Duration lease, Duration clockSkew, long passBytes, long limitBytes, Duration limitWait,
                           int slots, LongSupplier clock) {
    /** The most slots a table may have. */
    public static final int MAX_SLOTS = 4096;

    /** Validates the knobs. */
    public EpochOptions {
        Timeouts.require(lease, "lease");
        Objects.requireNonNull(clockSkew, "clockSkew");
        Timeouts.require(limitWait, "limitWait");
        Objects.requireNonNull(clock, "clock");
        if (clockSkew.isNegative() || clockSkew.compareTo(Timeouts.MAX_FINITE) > 0) {
            throw new BadArgumentException("clockSkew must be 0.." + Timeouts.MAX_FINITE + ", got " + clockSkew);
        }
        if (passBytes <= 0) {
            throw new BadArgumentException("passBytes must be positive, got " + passBytes);
        }
        if (limitBytes < passBytes) {
            throw new BadArgumentException("limitBytes (" + limitBytes + ") must be at least passBytes (" + passBytes + ")");
        }
        if (slots < 1 || slots > MAX_SLOTS) {
            throw new BadArgumentException("slots must be 1.." + MAX_SLOTS + ", got " + slots);
        }
    }

    /**
     * {@return a 1 s lease, 50 ms clock skew, a pass at 64 KiB unreclaimed, a limit of 1 MiB waited for
     *         up to 3 s, 64 slots per table, {@link System#currentTimeMillis()}}
     */
    public static EpochOptions defaults() {
        return new EpochOptions(Duration.ofSeconds(1), Duration.ofMillis(50), 64 << 10, 1 << 20, Duration.ofSeconds(3), 64,
                System::currentTimeMillis);
    }

    /**
     * Sets the lease.
     *
     * @param lease the lease, or {@link Timeouts#FOREVER}
     * @return a copy with it
     */
    public EpochOptions withLease(Duration lease) {
        return new EpochOptions(lease, clockSkew, passBytes, limitBytes, limitWait, slots, clock);
    }

    /**
     * Sets the clock skew bound.
     *
     * @param skew the clock skew bound
     * @return a copy with it
     */
    public EpochOptions withClockSkew(Duration skew) {
        return new EpochOptions(lease, skew, passBytes, limitBytes, limitWait, slots, clock);
    }

    /**
     * Sets the byte thresholds of a pass and of a waiting close.
     *
     * @param pass  unreclaimed bytes that trigger a pass
     * @param limit unreclaimed bytes that make a close wait, or {@link Long#MAX_VALUE}
     * @return a copy with them
     */
    public EpochOptions withBytes(long pass, long limit) {
        return new EpochOptions(lease, clockSkew, pass, limit, limitWait, slots, clock);
    }

    /**
     * Sets the longest wait for the limit.
     *
     * @param wait the longest wait for the limit
     * @return a copy with it
     */
    public EpochOptions withLimitWait(Duration wait) {
        return new EpochOptions(lease, clockSkew, passBytes, limitBytes, wait, slots, clock);
    }

    /**
     * Sets the number of slots per table.
     *
     * @param count slots per table
     * @return a copy with it
     */
    public EpochOptions withSlots(int count) {
        return new EpochOptions(lease, clockSkew, passBytes, limitBytes, limitWait, count, clock);
    }

    /**
     * Sets the clock leases are measured with.
     *
     * @param millis the clock
     * @return a copy with it
     */
    public EpochOptions withClock(LongSupplier millis) {
        return new EpochOptions(lease, clockSkew, passBytes, limitBytes, limitWait, slots, millis);
    }

    /** {@return whether the lease is {@link Timeouts#FOREVER}} */
    public boolean plainEpochs() {
        return Timeouts.isForever(lease);
    }
}
