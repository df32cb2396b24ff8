package io.remus.memcached;

import io.remus.check.HistoryFormatException;
import io.remus.check.Operation;
import io.remus.check.Specification;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Test fixture: memcached's items as remus-check sees them, a map from key words to 64-bit values (each stored as
 * its decimal text), initially empty; partitionable by key, so {@link io.remus.check.LinearizabilityChecker#checkByKey}
 * checks each key's history alone.
 * <ul>
 *   <li>{@code set(k, v)}: {@code STORED}; maps {@code k} to {@code v}, returns nothing;</li>
 *   <li>{@code get(k)}: returns {@code (0)} for a miss ({@code END}), {@code (1, v)} for a hit;</li>
 *   <li>{@code delete(k)}: returns 1 for {@code DELETED}, 0 for {@code NOT_FOUND};</li>
 *   <li>{@code incr(k, d)}: returns {@code (1, v + d)} and stores it when {@code k} is present, {@code (0)} for
 *       {@code NOT_FOUND}.</li>
 * </ul>
 */
final class CacheSpec implements Specification<CacheSpec.Items> {
    static final String SET = "set";
    static final String GET = "get";
    static final String DELETE = "delete";
    static final String INCR = "incr";

    private static final long[] NOTHING = {};
    private static final long[] MISS = {0};
    private static final long[] HIT = {1};

    /** The items, compared by content. */
    record Items(Map<Long, Long> values) {
    }

    @Override
    public Items initialState() {
        return new Items(Map.of());
    }

    @Override
    public Step<Items> apply(Items state, Operation op) {
        Objects.requireNonNull(state, "state");
        long[] a = op.arguments();
        int arity = switch (op.kind()) {
            case SET, INCR -> 2;
            case GET, DELETE -> 1;
            default -> throw new HistoryFormatException("memcached has no operation '" + op.kind()
                    + "' here (set, get, delete, incr): " + op);
        };
        if (a.length != arity) {
            throw new HistoryFormatException(op.kind() + " takes " + arity + " words, got " + a.length + " in " + op);
        }
        Long v = state.values().get(a[0]);
        return switch (op.kind()) {
            case SET -> new Step<>(with(state, a[0], a[1]), NOTHING);
            case GET -> new Step<>(state, v == null ? MISS : new long[] {1, v});
            case DELETE -> v == null ? new Step<>(state, MISS) : new Step<>(with(state, a[0], null), HIT);
            default -> v == null ? new Step<>(state, MISS) : new Step<>(with(state, a[0], v + a[1]), new long[] {1, v + a[1]});
        };
    }

    private static Items with(Items state, long key, Long value) {
        Map<Long, Long> m = new HashMap<>(state.values());
        if (value == null) {
            m.remove(key);
        } else {
            m.put(key, value);
        }
        return new Items(Map.copyOf(m));
    }

    @Override
    public boolean partitionable() {
        return true;
    }

    @Override
    public long key(Operation op) {
        if (op.arguments().length < 1) {
            throw new HistoryFormatException(op.kind() + " takes a key word first, got none in " + op);
        }
        return op.arguments()[0];
    }
}
