package io.remus.check;

import java.util.Arrays;

/**
 * The set of operations a search configuration has linearized, compact for long histories: every
 * completed operation below {@code first} (in invocation order) is linearized, a bit window holds
 * the completed ones from {@code first} on, and a separate bit set the pending ones (which may
 * never be linearized, and would otherwise pin {@code first}). Its size follows the concurrency of
 * the history, not its length. Immutable; equal sets are equal objects (the windows are trimmed).
 */
final class LinearizedSet {
    private static final long[] NO_BITS = {};

    private final int first;
    private final long[] window;
    private final long[] pendingBits;
    private final int hash;

    private LinearizedSet(int first, long[] window, long[] pendingBits) {
        this.first = first;
        this.window = window;
        this.pendingBits = pendingBits;
        this.hash = (31 * first + Arrays.hashCode(window)) * 31 + Arrays.hashCode(pendingBits);
    }

    /**
     * @param pendingOrdinal per operation, its index among the pending operations, or -1 when completed
     * @return the empty set, its {@code first} advanced past leading pending operations
     */
    static LinearizedSet empty(int[] pendingOrdinal) {
        int f = 0;
        while (f < pendingOrdinal.length && pendingOrdinal[f] >= 0) {
            f++;
        }
        return new LinearizedSet(f, NO_BITS, NO_BITS);
    }

    /** {@return the lowest index of a completed operation not linearized (the operation count when none)} */
    int first() {
        return first;
    }

    /**
     * @param i              an operation index
     * @param pendingOrdinal as in {@link #empty}
     * @return whether operation {@code i} is linearized
     */
    boolean contains(int i, int[] pendingOrdinal) {
        int p = pendingOrdinal[i];
        if (p >= 0) {
            return test(pendingBits, p);
        }
        return i < first || test(window, i - first);
    }

    /**
     * @param i              an operation index not in the set
     * @param pendingOrdinal as in {@link #empty}
     * @return the set with {@code i} added
     */
    LinearizedSet with(int i, int[] pendingOrdinal) {
        int p = pendingOrdinal[i];
        if (p >= 0) {
            return new LinearizedSet(first, window, set(pendingBits, p));
        }
        long[] w = set(window, i - first);
        int shift = 0;
        int n = pendingOrdinal.length;
        while (first + shift < n && (pendingOrdinal[first + shift] >= 0 || test(w, shift))) {
            shift++;
        }
        return new LinearizedSet(first + shift, trim(shiftRight(w, shift)), pendingBits);
    }

    private static boolean test(long[] bits, int i) {
        int word = i >>> 6;
        return word < bits.length && (bits[word] & (1L << i)) != 0;
    }

    private static long[] set(long[] bits, int i) {
        long[] b = Arrays.copyOf(bits, Math.max(bits.length, (i >>> 6) + 1));
        b[i >>> 6] |= 1L << i;
        return b;
    }

    private static long[] shiftRight(long[] bits, int shift) {
        if (shift == 0) {
            return bits;
        }
        int words = shift >>> 6;
        int rest = shift & 63;
        int length = Math.max(0, bits.length - words);
        long[] out = new long[length];
        for (int k = 0; k < length; k++) {
            long low = bits[k + words] >>> rest;
            long high = rest == 0 || k + words + 1 >= bits.length ? 0 : bits[k + words + 1] << (64 - rest);
            out[k] = low | high;
        }
        return out;
    }

    private static long[] trim(long[] bits) {
        int length = bits.length;
        while (length > 0 && bits[length - 1] == 0) {
            length--;
        }
        return length == bits.length ? bits : Arrays.copyOf(bits, length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LinearizedSet s && hash == s.hash && first == s.first && Arrays.equals(window, s.window)
                && Arrays.equals(pendingBits, s.pendingBits);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
