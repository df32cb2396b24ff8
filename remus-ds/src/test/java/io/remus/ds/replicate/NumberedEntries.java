package io.remus.ds.replicate;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The entries the rxe tests of the replicated log append: entry {@code i} is {@code 8 + i % 41} bytes, the word
 * {@link #value}{@code (i)} and then the bytes {@code value + j}, so that a replica's state machine can check that
 * the entry it applies at index {@code i} is entry {@code i}, whole.
 */
final class NumberedEntries {
    /** The largest entry: {@code 8 + 40} bytes. */
    static final int MAX_BYTES = 48;

    private NumberedEntries() {
    }

    /** {@return entry {@code index}'s first word, distinct for every index} */
    static long value(long index) {
        return (index + 1) * 0x9E37_79B9_7F4A_7C15L;
    }

    /** {@return entry {@code index}'s bytes} */
    static MemorySegment entry(long index) {
        long v = value(index);
        int length = (int) (8 + index % 41);
        MemorySegment e = MemorySegment.ofArray(new byte[length]);
        e.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, v);
        for (int j = 8; j < length; j++) {
            e.set(ValueLayout.JAVA_BYTE, j, (byte) (v + j));
        }
        return e;
    }

    /**
     * Checks what a replica applied as entry {@code index}.
     *
     * @param node    the replica's node, for the message
     * @param index   the index the replica applied it at
     * @param entry   its bytes
     * @param applied how many entries the replica applied before it
     * @return its first word
     * @throws AssertionError when it is applied out of order, or is not entry {@code index} whole
     */
    static long check(int node, long index, MemorySegment entry, long applied) {
        if (index != applied) {
            throw new AssertionError("node " + node + " applied index " + index + " after " + applied + " entries");
        }
        long v = entry.byteSize() >= 8 ? entry.get(ValueLayout.JAVA_LONG_UNALIGNED, 0) : 0;
        if (entry.byteSize() != 8 + index % 41 || v != value(index)) {
            throw new AssertionError("node " + node + " applied at index " + index + " an entry of " + entry.byteSize()
                    + " bytes with value " + v + ", not entry " + index);
        }
        for (int j = 8; j < entry.byteSize(); j++) {
            if (entry.get(ValueLayout.JAVA_BYTE, j) != (byte) (v + j)) {
                throw new AssertionError("node " + node + " applied a torn entry " + index + " (byte " + j + ")");
            }
        }
        return v;
    }
}
