package io.remus.ds.object;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A sequential object that {@link WaitFreeObject} turns into a linearizable wait-free shared one: an
 * immutable state that serializes into a block of a fixed size, and a deterministic step function.
 *
 * <p>An operation is two words, an operation code and an argument, chosen by the object; its response
 * is two words too, a status and a value (for example "empty" and nothing, or "ok" and the element).
 * {@link #apply} must be a pure function of its arguments: the same state and operation always give the
 * same step, and the given state is never changed (a step returns a new state, or the same one when the
 * operation changes nothing). Helpers on different threads and nodes apply the same operation to the
 * same state and must agree on the result.
 *
 * @param <S> the state type, immutable
 */
public interface SequentialObject<S> {
    /** {@return the bytes of a serialized state, 1 or more, the same for every state} */
    int stateBytes();

    /** {@return the state of a new object} */
    S initialState();

    /**
     * Serializes a state.
     *
     * @param state the state
     * @param to    exactly {@link #stateBytes()} bytes
     */
    void store(S state, MemorySegment to);

    /**
     * Deserializes what {@link #store} wrote.
     *
     * @param from exactly {@link #stateBytes()} bytes
     * @return the state
     */
    S load(MemorySegment from);

    /**
     * Applies one operation. Deterministic and without side effects, and total: it returns a step for
     * any two words (an unknown operation gets a status that says so), since a helper may read a record
     * that its owner is rewriting (the helper's compare-and-swap then fails and discards the result). An
     * operation it throws for (a {@link RuntimeException}) takes no effect: {@link WaitFreeObject#apply}
     * throws {@link SequentialOperationException} with it as cause to that operation's caller only.
     *
     * @param state     the state before the operation (not changed)
     * @param operation the operation code
     * @param argument  its argument
     * @return the state after it and the operation's response
     */
    Step<S> apply(S state, long operation, long argument);

    /**
     * One step of the sequential object.
     *
     * @param state  the state after the operation, not null
     * @param status the response's status word
     * @param value  the response's value word
     * @param <S>    the state type
     */
    record Step<S>(S state, long status, long value) {
        /** Checks the state. */
        public Step {
            Objects.requireNonNull(state, "state");
        }
    }
}
