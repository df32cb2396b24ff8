package io.remus.ds.object;

import io.remus.check.HistoryFormatException;
import io.remus.check.Operation;
import io.remus.check.Specification;

import java.util.Arrays;

/**
 * A bounded FIFO queue or LIFO stack of words, initially empty, for the checker: {@code put(v)}
 * returns {@code 1} when it added {@code v} and {@code 0} when the container was full; {@code take()}
 * returns the oldest (FIFO) or newest (LIFO) word and removes it, or no word when empty.
 */
public final class BoundedContainerSpec implements Specification<BoundedContainerSpec.Contents> {
    /** Operation name: add a word, result 1, or 0 when full. */
    public static final String PUT = "put";
    /** Operation name: remove the oldest (FIFO) or newest (LIFO) word, no result word when empty. */
    public static final String TAKE = "take";

    private final boolean fifo;
    private final int capacity;
    private final boolean earlyFull;

    /**
     * @param fifo     a queue (true) or a stack
     * @param capacity the most words it holds
     */
    public BoundedContainerSpec(boolean fifo, int capacity) {
        this(fifo, capacity, false);
    }

    /**
     * @param fifo      a queue (true) or a stack
     * @param capacity  the most words it holds
     * @param earlyFull whether {@code put} may answer full ({@code 0}, no change) while fewer than {@code capacity}
     *                  words are held, as a queue whose full answer counts claims that later fail may
     */
    public BoundedContainerSpec(boolean fifo, int capacity, boolean earlyFull) {
        this.fifo = fifo;
        this.capacity = capacity;
        this.earlyFull = earlyFull;
    }

    @Override
    public Contents initialState() {
        return new Contents(new long[0]);
    }

    @Override
    public Step<Contents> apply(Contents state, Operation op) {
        long[] w = state.words;
        return switch (op.kind()) {
            case PUT -> {
                if (w.length == capacity || earlyFull && op.result() != null && op.result().length == 1 && op.result()[0] == 0) {
                    yield new Step<>(state, new long[] {0});
                }
                long[] next = Arrays.copyOf(w, w.length + 1);
                next[w.length] = op.arguments()[0];
                yield new Step<>(new Contents(next), new long[] {1});
            }
            case TAKE -> {
                if (w.length == 0) {
                    yield new Step<>(state, new long[0]);
                }
                yield fifo
                        ? new Step<>(new Contents(Arrays.copyOfRange(w, 1, w.length)), new long[] {w[0]})
                        : new Step<>(new Contents(Arrays.copyOf(w, w.length - 1)), new long[] {w[w.length - 1]});
            }
            default -> throw new HistoryFormatException("a container has put and take, got " + op.kind());
        };
    }

    /** The words, oldest first, compared by content. */
    public static final class Contents {
        private final long[] words;

        Contents(long[] words) {
            this.words = words;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Contents c && Arrays.equals(words, c.words);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(words);
        }

        @Override
        public String toString() {
            return Arrays.toString(words);
        }
    }
}
