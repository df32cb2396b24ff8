package io.remus.ds.reclaim;

import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.time.ThreadTime;

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
 *                   fewer are left or {@code limitWait} is over; {@link Long#MAX_VALUE} for no limit (the
 *                   default). A limit makes closing a guard <em>blocking</em>: while another thread holds the
 *                   epoch back (a stalled thread, for up to its lease and the clock skew), the closing thread
 *                   waits for it, so every wait-free or lock-free object used with this reclaimer is then
 *                   blocking too. Without a limit, what a thread holds unreclaimed is bounded by what it
 *                   retires within a lease plus the clock skew, plus {@code passBytes} (see
 *                   {@link EpochReclaimer})
 * @param limitWait  the longest such a wait lasts (then the close returns, and
 *                   {@link EpochReclaimer#limitTimeouts()} counts it); no wait without a limit
 * @param slots      announcement slots per memory node's table (every thread of the nodes that share the
 *                   table takes one); read only by the reclaimer that creates a table
 * @param clock      the clock leases are measured with, in milliseconds, the same on every node up to
 *                   {@code clockSkew} and never stepped back ({@link System#currentTimeMillis()} by default; on a
 *                   thread of the simulator's virtual-time scheduler, its virtual clock: {@link ThreadTime#nanoTime()}
 *                   in milliseconds)
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
     * The defaults, with which no call of the reclaimer waits for another thread (and so no wait-free or
     * lock-free object that uses it does): unreclaimed memory is bounded by the lease and the passes, not
     * by parking the caller.
     *
     * @return a 1 s lease, 50 ms clock skew, a pass at 64 KiB unreclaimed, no limit ({@link Long#MAX_VALUE};
     *         {@code limitWait} 3 s, for a limit set with {@link #withBytes}), 64 slots per table,
     *         {@link System#currentTimeMillis()} (on a virtual-time scheduled thread, {@link ThreadTime#nanoTime()} in
     *         milliseconds)
     */
    public static EpochOptions defaults() {
        return new EpochOptions(Duration.ofSeconds(1), Duration.ofMillis(50), 64 << 10, Long.MAX_VALUE, Duration.ofSeconds(3), 64,
                EpochOptions::defaultClockMillis);
    }

    private static long defaultClockMillis() {
        return ThreadTime.isScheduled() ? ThreadTime.nanoTime() / 1_000_000 : System.currentTimeMillis();
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
     * @param limit unreclaimed bytes that make a close wait, or {@link Long#MAX_VALUE} for none; a limit makes
     *              closing a guard, and so every object used with the reclaimer, blocking (see {@link #limitBytes()})
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
