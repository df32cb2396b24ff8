package io.remus.check.spec;

import io.remus.check.Operation;
import io.remus.check.Specification;

import java.util.Arrays;
import java.util.Objects;

/**
 * A set of words, initially empty. Partitionable by element (P-compositionality): operations on
 * different elements are independent.
 *
 * <ul>
 *   <li>{@code add(x)} inserts {@code x} and returns 1 if it was absent, 0 otherwise;</li>
 *   <li>{@code remove(x)} deletes {@code x} and returns 1 if it was present, 0 otherwise;</li>
 *   <li>{@code contains(x)} returns 1 if {@code x} is present, 0 otherwise.</li>
 * </ul>
 */
public final class SetSpec implements Specification<SetSpec.Members> {
    /** Operation name: insert. */
    public static final String ADD = "add";
    /** Operation name: delete. */
    public static final String REMOVE = "remove";
    /** Operation name: membership. */
    public static final String CONTAINS = "contains";

    private static final long[] TRUE = {1};
    private static final long[] FALSE = {0};

    /** Creates the specification of a set. */
    public SetSpec() {
    }

    @Override
    public Members initialState() {
        return new Members(new long[0]);
    }

    @Override
    public Step<Members> apply(Members state, Operation op) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(op, "op");
        if (!op.kind().equals(ADD) && !op.kind().equals(REMOVE) && !op.kind().equals(CONTAINS)) {
            throw Arity.unknown("a set", op, "add, remove, contains");
        }
        Arity.require(op, 1);
        long x = op.arguments()[0];
        long[] m = state.sorted;
        int at = Arrays.binarySearch(m, x);
        boolean present = at >= 0;
        return switch (op.kind()) {
            case ADD -> {
                if (present) {
                    yield new Step<>(state, FALSE);
                }
                int i = -at - 1;
                long[] next = new long[m.length + 1];
                System.arraycopy(m, 0, next, 0, i);
                next[i] = x;
                System.arraycopy(m, i, next, i + 1, m.length - i);
                yield new Step<>(new Members(next), TRUE);
            }
            case REMOVE -> {
                if (!present) {
                    yield new Step<>(state, FALSE);
                }
                long[] next = new long[m.length - 1];
                System.arraycopy(m, 0, next, 0, at);
                System.arraycopy(m, at + 1, next, at, m.length - at - 1);
                yield new Step<>(new Members(next), TRUE);
            }
            default -> new Step<>(state, present ? TRUE : FALSE);
        };
    }

    @Override
    public boolean partitionable() {
        return true;
    }

    @Override
    public long key(Operation op) {
        Objects.requireNonNull(op, "op");
        Arity.require(op, 1);
        return op.arguments()[0];
    }

    /** The set's elements in ascending order, compared by content. */
    public static final class Members {
        private final long[] sorted;

        Members(long[] sorted) {
            this.sorted = sorted;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Members m && Arrays.equals(sorted, m.sorted);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(sorted);
        }

        @Override
        public String toString() {
            return "set" + Arrays.toString(sorted);
        }
    }
}
