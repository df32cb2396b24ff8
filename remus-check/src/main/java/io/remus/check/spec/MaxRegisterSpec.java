package io.remus.check.spec;

import io.remus.check.Operation;
import io.remus.check.Specification;

import java.util.Objects;

/**
 * A max register of unsigned 64-bit values, initially zero.
 *
 * <ul>
 *   <li>{@code writeMax(v)} raises the value to {@code v} if {@code v} is larger and returns nothing;</li>
 *   <li>{@code read()} returns the largest value written (or zero).</li>
 * </ul>
 */
public final class MaxRegisterSpec implements Specification<Long> {
    /** Operation name: raise the value. */
    public static final String WRITE_MAX = "writeMax";
    /** Operation name: load the value. */
    public static final String READ = "read";

    /** Creates the specification of a max register. */
    public MaxRegisterSpec() {
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
            case WRITE_MAX -> {
                Arity.require(op, 1);
                long v = op.arguments()[0];
                yield new Step<>(Long.compareUnsigned(v, state) > 0 ? v : state, new long[0]);
            }
            case READ -> {
                Arity.require(op, 0);
                yield new Step<>(state, new long[] {state});
            }
            default -> throw Arity.unknown("a max register", op, "writeMax, read");
        };
    }
}
