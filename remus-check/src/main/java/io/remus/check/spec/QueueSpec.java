package io.remus.check.spec;

import io.remus.check.Operation;
import io.remus.check.Specification;

import java.util.Arrays;
import java.util.Objects;

/**
 * A FIFO queue of words, initially empty.
 *
 * <ul>
 *   <li>{@code enqueue(v)} appends {@code v} and returns nothing;</li>
 *   <li>{@code dequeue()} removes and returns the oldest word, or returns no word when empty.</li>
 * </ul>
 */
public final class QueueSpec implements Specification<QueueSpec.Contents> {
    /** Operation name: append. */
    public static final String ENQUEUE = "enqueue";
    /** Operation name: remove the oldest. */
    public static final String DEQUEUE = "dequeue";

    /** Creates the specification of a queue. */
    public QueueSpec() {
    }

    @Override
    public Contents initialState() {
        return new Contents(new long[0]);
    }

    @Override
    public Step<Contents> apply(Contents state, Operation op) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(op, "op");
        long[] q = state.words;
        return switch (op.kind()) {
            case ENQUEUE -> {
                Arity.require(op, 1);
                long[] next = Arrays.copyOf(q, q.length + 1);
                next[q.length] = op.arguments()[0];
                yield new Step<>(new Contents(next), new long[0]);
            }
            case DEQUEUE -> {
                Arity.require(op, 0);
                yield q.length == 0
                        ? new Step<>(state, new long[0])
                        : new Step<>(new Contents(Arrays.copyOfRange(q, 1, q.length)), new long[] {q[0]});
            }
            default -> throw Arity.unknown("a queue", op, "enqueue, dequeue");
        };
    }

    /** The queue's words, oldest first, compared by content. */
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
            return "queue" + Arrays.toString(words);
        }
    }
}
