package io.remus.check.spec;

import io.remus.check.HistoryFormatException;
import io.remus.check.Operation;
import io.remus.check.Specification;

import java.util.Arrays;
import java.util.Objects;

/**
 * A map from word keys to values of zero or more words, initially empty. Partitionable by key
 * (P-compositionality): operations on different keys are independent, so a history can be checked
 * one key at a time ({@link io.remus.check.LinearizabilityChecker#checkByKey}).
 *
 * <ul>
 *   <li>{@code put(k, v...)} maps {@code k} to the words {@code v...} and returns 1 if {@code k} was
 *       absent, 0 if its value was replaced;</li>
 *   <li>{@code get(k)} returns {@code (0)} if {@code k} is absent, else {@code (1, v...)};</li>
 *   <li>{@code remove(k)} deletes {@code k} and returns 1 if it was present, 0 otherwise.</li>
 * </ul>
 */
public final class MapSpec implements Specification<MapSpec.Entries> {
    /** Operation name: insert or replace. */
    public static final String PUT = "put";
    /** Operation name: lookup. */
    public static final String GET = "get";
    /** Operation name: delete. */
    public static final String REMOVE = "remove";

    private static final long[] TRUE = {1};
    private static final long[] FALSE = {0};

    /** Creates the specification of a map. */
    public MapSpec() {
    }

    @Override
    public Entries initialState() {
        return new Entries(new long[0], new long[0][]);
    }

    @Override
    public Step<Entries> apply(Entries state, Operation op) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(op, "op");
        long[] args = op.arguments();
        switch (op.kind()) {
            case PUT -> {
                if (args.length < 1) {
                    throw new HistoryFormatException("put takes a key and the value's words, got no word in " + op);
                }
            }
            case GET, REMOVE -> Arity.require(op, 1);
            default -> throw Arity.unknown("a map", op, "put, get, remove");
        }
        long k = args[0];
        int at = Arrays.binarySearch(state.keys, k);
        boolean present = at >= 0;
        return switch (op.kind()) {
            case PUT -> {
                long[] value = Arrays.copyOfRange(args, 1, args.length);
                if (present) {
                    long[][] values = state.values.clone();
                    values[at] = value;
                    yield new Step<>(new Entries(state.keys, values), FALSE);
                }
                int i = -at - 1;
                int n = state.keys.length;
                long[] keys = new long[n + 1];
                long[][] values = new long[n + 1][];
                System.arraycopy(state.keys, 0, keys, 0, i);
                System.arraycopy(state.values, 0, values, 0, i);
                keys[i] = k;
                values[i] = value;
                System.arraycopy(state.keys, i, keys, i + 1, n - i);
                System.arraycopy(state.values, i, values, i + 1, n - i);
                yield new Step<>(new Entries(keys, values), TRUE);
            }
            case REMOVE -> {
                if (!present) {
                    yield new Step<>(state, FALSE);
                }
                int n = state.keys.length;
                long[] keys = new long[n - 1];
                long[][] values = new long[n - 1][];
                System.arraycopy(state.keys, 0, keys, 0, at);
                System.arraycopy(state.values, 0, values, 0, at);
                System.arraycopy(state.keys, at + 1, keys, at, n - at - 1);
                System.arraycopy(state.values, at + 1, values, at, n - at - 1);
                yield new Step<>(new Entries(keys, values), TRUE);
            }
            default -> {
                if (!present) {
                    yield new Step<>(state, FALSE);
                }
                long[] v = state.values[at];
                long[] result = new long[v.length + 1];
                result[0] = 1;
                System.arraycopy(v, 0, result, 1, v.length);
                yield new Step<>(state, result);
            }
        };
    }

    @Override
    public boolean partitionable() {
        return true;
    }

    @Override
    public long key(Operation op) {
        Objects.requireNonNull(op, "op");
        if (op.arguments().length < 1) {
            throw new HistoryFormatException(op.kind() + " takes a key word first, got none in " + op);
        }
        return op.arguments()[0];
    }

    /** The map's entries in ascending key order, compared by content. */
    public static final class Entries {
        private final long[] keys;
        private final long[][] values;
        private final int hash;

        Entries(long[] keys, long[][] values) {
            this.keys = keys;
            this.values = values;
            this.hash = 31 * Arrays.hashCode(keys) + Arrays.deepHashCode(values);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entries e && hash == e.hash && Arrays.equals(keys, e.keys) && Arrays.deepEquals(values, e.values);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder("map{");
            for (int i = 0; i < keys.length; i++) {
                s.append(i == 0 ? "" : ", ").append(keys[i]).append('=').append(Arrays.toString(values[i]));
            }
            return s.append('}').toString();
        }
    }
}
