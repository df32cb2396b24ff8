package io.remus.check;

import java.util.Objects;

/**
 * Bounds on how far one process's clock is from a reference process's clock, for merging the
 * histories of processes on different hosts: a reading {@code r} of this clock was, at the same
 * instant, a reading in {@code [r + low, r + high]} of the reference clock.
 *
 * <p>The bounds come from round trips to the reference process (Cristian's algorithm: F. Cristian,
 * "Probabilistic clock synchronization", Distributed Computing 3(3), 1989), used here as an interval
 * rather than an estimate: a process reads its clock ({@code sentAt}), asks the reference for a
 * reading, and reads its clock again when the answer arrived ({@code receivedAt}). The reference
 * read its clock at some instant in between, so the offset then lay in
 * {@code [reference - receivedAt, reference - sentAt]} (one tick wider on each side for readings
 * floored to the clock's unit), however slow the round trip was. Each round trip gives a true
 * bound; {@link #intersect} keeps the tightest. A clock that drifts against the reference moves
 * its offset over time: bounds measured before and after a run, joined with {@link #span}, hold
 * for every instant between them where the drift is steady (a constant rate, as a free-running
 * oscillator's), not where a clock is stepped.
 *
 * <p>{@link #apply} maps an operation onto the reference clock by widening: the invocation to its
 * earliest possible reference reading, the response to its latest. The checker orders two
 * operations only when one's response reading is strictly below the other's invocation reading, so
 * widened operations are ordered only where they truly were ordered: a wide bound makes more
 * operations concurrent (a weaker check), never a false violation.
 *
 * @param low  the least offset, in the clock's units
 * @param high the greatest offset, at least {@code low}
 */
public record ClockOffset(long low, long high) {
    /** The reference clock's own offset to itself. */
    public static final ClockOffset ZERO = new ClockOffset(0, 0);

    /**
     * Checks the bounds.
     *
     * @throws IllegalArgumentException when {@code low > high}
     */
    public ClockOffset {
        if (low > high) {
            throw new IllegalArgumentException("clock offset bounds are reversed: low " + low + " > high " + high);
        }
    }

    /**
     * The bound one round trip gives.
     *
     * @param sentAt           this clock's reading before the request
     * @param referenceReading the reference clock's reading, taken after the request arrived and before the answer left
     * @param receivedAt       this clock's reading after the answer arrived
     * @return {@code [referenceReading - receivedAt - 1, referenceReading - sentAt + 1]}
     * @throws IllegalArgumentException when {@code receivedAt < sentAt} (this clock went back)
     */
    public static ClockOffset ofRoundTrip(long sentAt, long referenceReading, long receivedAt) {
        if (receivedAt < sentAt) {
            throw new IllegalArgumentException("the clock went back during a round trip: sent at " + sentAt
                    + ", received at " + receivedAt);
        }
        return new ClockOffset(Math.subtractExact(Math.subtractExact(referenceReading, receivedAt), 1),
                Math.addExact(Math.subtractExact(referenceReading, sentAt), 1));
    }

    /**
     * The bound both this and {@code other} state at one time: their overlap.
     *
     * @param other a bound on the same offset at about the same time
     * @return the overlap
     * @throws IllegalStateException when they do not overlap: one of the clocks was stepped, or a
     *                               bound was not measured as {@link #ofRoundTrip} says
     */
    public ClockOffset intersect(ClockOffset other) {
        Objects.requireNonNull(other, "other");
        long lo = Math.max(low, other.low);
        long hi = Math.min(high, other.high);
        if (lo > hi) {
            throw new IllegalStateException("clock offset bounds " + this + " and " + other
                    + " do not overlap: a clock was stepped between the round trips");
        }
        return new ClockOffset(lo, hi);
    }

    /**
     * A bound for every instant between this bound's and {@code other}'s measurements, under steady
     * drift: the smallest interval holding both.
     *
     * @param other a bound measured at another time
     * @return the interval spanning both
     */
    public ClockOffset span(ClockOffset other) {
        Objects.requireNonNull(other, "other");
        return new ClockOffset(Math.min(low, other.low), Math.max(high, other.high));
    }

    /** {@return {@code high - low}: how much concurrency the merge adds to operations of this clock} */
    public long width() {
        return high - low;
    }

    /**
     * Maps an operation onto the reference clock, widened: invocation at {@code invokedAt + low},
     * response at {@code respondedAt + high} (a pending operation stays pending).
     *
     * @param op an operation read with this clock
     * @return the same operation on the reference clock
     */
    public Operation apply(Operation op) {
        Objects.requireNonNull(op, "op");
        if (low == 0 && high == 0) {
            return op;
        }
        long respondedAt = op.isPending() ? Operation.PENDING : Math.addExact(op.respondedAt(), high);
        return new Operation(op.id(), op.process(), op.thread(), op.kind(), op.arguments(), op.result(),
                Math.addExact(op.invokedAt(), low), respondedAt);
    }

    @Override
    public String toString() {
        return "[" + low + ", " + high + "]";
    }
}
