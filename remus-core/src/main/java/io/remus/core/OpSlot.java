package io.remus.core;

import io.remus.core.error.CompletionStatus;

/**
 * The state of one of a {@link ComputeThread}'s operation slots: one per operation it may have in
 * flight, reused after each await. Its generation grows by one each time the slot is released, and
 * the {@link OpHandle} given out for an operation carries the generation it was issued with, so a
 * handle whose slot moved on is recognised as stale. Confined to the compute thread's owner.
 */
final class OpSlot {
    enum State { FREE, PENDING, DONE, ABANDONED }

    final int slot;
    int generation;
    State state = State.FREE;
    CompletionStatus status = CompletionStatus.SUCCESS;
    int node;
    int lane;
    long resultOffset;
    long localValue;
    boolean hasLocalValue;

    OpSlot(int slot) {
        this.slot = slot;
    }
}
