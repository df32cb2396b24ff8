package io.remus.check;

import java.util.Objects;

/**
 * The sequential specification of an object: its initial state and what each operation does to a
 * state and returns. The checker memoizes the states it has visited (Lowe), so a state must be
 * immutable and implement {@code equals} and {@code hashCode} by value (a record of values, or
 * a class that compares its contents).
 *
 * @param <S> the state type
 */
public interface Specification<S> {
    /** {@return the state before any operation} */
    S initialState();

    /**
     * Applies one operation to a state. Deterministic: the same state and operation give the same
     * step. The operation's own result is not consulted; the checker compares it with the step's.
     *
     * @param state a state reached by earlier operations
     * @param op    the operation (its kind and arguments)
     * @return the next state and the result the operation returns in {@code state}
     * @throws HistoryFormatException for an operation kind or argument count the object does not have
     */
    Step<S> apply(S state, Operation op);

    /**
     * For P-compositionality (Horn and Kroening): whether the object is a product of independent
     * objects, one per key (a set or a map: the operations on one element never affect another's),
     * so a history is linearizable exactly when each key's sub-history is.
     *
     * @return whether {@link #key} partitions the operations
     */
    default boolean partitionable() {
        return false;
    }

    /**
     * The key an operation touches, when {@link #partitionable()}. The sub-history of a key is
     * checked against this same specification from its initial state.
     *
     * @param op an operation
     * @return its key
     */
    default long key(Operation op) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not partition by key");
    }

    /**
     * One step of a sequential execution.
     *
     * @param state  the state after the operation
     * @param result the words the operation returns
     * @param <S>    the state type
     */
    record Step<S>(S state, long[] result) {
        /** Checks the components. */
        public Step {
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(result, "result");
        }
    }
}
