package io.remus.memcached;

/**
 * The outcome of incr or decr.
 *
 * @param status what happened
 * @param value  the new value, an unsigned 64-bit number, when {@code status} is {@link Status#OK}
 */
public record ArithmeticResult(Status status, long value) {
    /** What incr or decr found. */
    public enum Status {
        /** The item held a number; {@link #value()} is the new one. */
        OK,
        /** No item under the key. */
        NOT_FOUND,
        /** The item's data is not a decimal unsigned 64-bit number. */
        NON_NUMERIC
    }
}
