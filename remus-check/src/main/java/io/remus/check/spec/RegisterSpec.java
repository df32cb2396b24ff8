package io.remus.check.spec;

import io.remus.check.Operation;
import io.remus.check.Specification;

import java.util.Arrays;
import java.util.Objects;

/**
 * An atomic read/write register of a fixed number of words (one for an 8-byte register, two for
 * a 16-byte one), initially all zero.
 *
 * <ul>
 *   <li>{@code write(w...)} stores the words and returns nothing;</li>
 *   <li>{@code read()} returns the words last written.</li>
 * </ul>
 */
public final class RegisterSpec implements Specification<RegisterSpec.Value> {
    /** Operation name: store a value. */
    public static final String WRITE = "write";
    /** Operation name: load the value. */
    public static final String READ = "read";

    private static final long[] NOTHING = {};

    private final int words;

    /**
     * Creates the specification of a register of {@code words} words.
     *
     * @param words the register's width in words (1 or more)
     */
    public RegisterSpec(int words) {
        if (words < 1) {
            throw new IllegalArgumentException("register width must be at least one word, got " + words);
        }
        this.words = words;
    }

    @Override
    public Value initialState() {
        return new Value(new long[words]);
    }

    @Override
    public Step<Value> apply(Value state, Operation op) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(op, "op");
        return switch (op.kind()) {
            case WRITE -> {
                Arity.require(op, words);
                yield new Step<>(new Value(op.arguments()), NOTHING);
            }
            case READ -> {
                Arity.require(op, 0);
                yield new Step<>(state, state.words);
            }
            default -> throw Arity.unknown("a register", op, "write, read");
        };
    }

    /** The register's value, compared by content. */
    public static final class Value {
        private final long[] words;

        Value(long[] words) {
            this.words = words;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Value v && Arrays.equals(words, v.words);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(words);
        }

        @Override
        public String toString() {
            return "register" + Arrays.toString(words);
        }
    }
}
