package io.remus.check.spec;

import io.remus.check.Operation;
import io.remus.check.Specification;

import java.util.Objects;

/**
 * A counter, initially zero.
 *
 * <ul>
 *   <li>{@code fetchAndAdd(d)} adds {@code d} (wrapping like a 64-bit word) and returns the value before;</li>
 *   <li>{@code read()} returns the value.</li>
 * </ul>
 */
public final class CounterSpec implements Specification<Long> {
    /** Operation name: add and return the old value. */
    public static final String FETCH_AND_ADD = "fetchAndAdd";
    /** Operation name: load the value. */
    public static final String READ = "read";

    /** Creates the specification of a counter. */
    public CounterSpec() {
    }

    @Override
    public Long initialState() {
        return 0L;
    }

    @Override
    public Step<Long> apply(Long state, Operation op) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(op, "op");
        return switch (op.kind()) {
            case FETCH_AND_ADD -> {
                Arity.require(op, 1);
                yield new Step<>(state + op.arguments()[0], new long[] {state});
            }
            case READ -> {
                Arity.require(op, 0);
                yield new Step<>(state, new long[] {state});
            }
            default -> throw Arity.unknown("a counter", op, "fetchAndAdd, read");
        };
    }
}
