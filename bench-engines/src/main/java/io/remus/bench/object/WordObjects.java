package io.remus.bench.object;

import io.remus.ds.object.SequentialObject;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The sequential objects behind the locked twins of the objects that are not built on
 * {@link io.remus.ds.object.WaitFreeObject}: counter, max register, register and shared state table,
 * each with the benchmark's operations. {@link #READ} returns the first word and changes nothing, so
 * {@link io.remus.ds.object.LockedObject} WRITEs nothing for it.
 */
final class WordObjects {
    /** The update: add the argument, write the maximum, write every word, or (plus a row) write a row. */
    static final long UPDATE = 1;
    /** The read: the first word, state unchanged. */
    static final long READ = 2;

    private WordObjects() {
    }

    /** {@return a counter: {@link #UPDATE} adds the argument and returns the count before} */
    static SequentialObject<long[]> counter() {
        return new Words(1, false);
    }

    /** {@return a max register: {@link #UPDATE} keeps the larger of the word and the argument} */
    static SequentialObject<long[]> max() {
        return new Words(1, true);
    }

    /** {@return a register of {@code words} words: {@link #UPDATE} writes the argument into each} */
    static SequentialObject<long[]> register(int words) {
        return new Rows(1, words);
    }

    /** {@return a table of {@code rows} rows of {@code words} words: {@code UPDATE + 2 row} fills that row} */
    static SequentialObject<long[]> table(int rows, int words) {
        return new Rows(rows, words);
    }

    /** {@return the operation that writes row {@code row} of a {@link #table}} */
    static long writeRow(int row) {
        return UPDATE + 2L * row;
    }

    private abstract static class LongArray implements SequentialObject<long[]> {
        private final int words;

        LongArray(int words) {
            this.words = words;
        }

        @Override
        public int stateBytes() {
            return 8 * words;
        }

        @Override
        public long[] initialState() {
            return new long[words];
        }

        @Override
        public void store(long[] state, MemorySegment to) {
            MemorySegment.copy(state, 0, to, ValueLayout.JAVA_LONG_UNALIGNED, 0, state.length);
        }

        @Override
        public long[] load(MemorySegment from) {
            return from.toArray(ValueLayout.JAVA_LONG_UNALIGNED);
        }
    }

    private static final class Words extends LongArray {
        private final boolean max;

        Words(int words, boolean max) {
            super(words);
            this.max = max;
        }

        @Override
        public Step<long[]> apply(long[] state, long operation, long argument) {
            if (operation != UPDATE || (max && argument <= state[0])) {
                return new Step<>(state, 0, state[0]);
            }
            return new Step<>(new long[]{max ? argument : state[0] + argument}, 0, state[0]);
        }
    }

    private static final class Rows extends LongArray {
        private final int rows;
        private final int words;

        Rows(int rows, int words) {
            super(rows * words);
            this.rows = rows;
            this.words = words;
        }

        @Override
        public Step<long[]> apply(long[] state, long operation, long argument) {
            long row = (operation - UPDATE) / 2;
            if (operation == READ || (operation - UPDATE) % 2 != 0 || row < 0 || row >= rows) {
                return new Step<>(state, 0, state[0]);
            }
            long[] next = Arrays.copyOf(state, state.length);
            Arrays.fill(next, (int) row * words, (int) (row + 1) * words, argument);
            return new Step<>(next, 0, state[0]);
        }
    }
}
