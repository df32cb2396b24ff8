package io.remus.bench.object;

import io.remus.ds.object.SequentialObject;

import java.lang.foreign.MemorySegment;

/**
 * The stalled worker's sequential object: the benchmarked one, with a {@link Stall#parkIfArmed()} at the
 * start of {@link #apply}. {@link io.remus.ds.object.LockedObject} applies an operation while it holds
 * the lock, between its READ and its WRITE; {@link io.remus.ds.object.WaitFreeObject} applies the
 * announced operations after its announcement and its READs of the state, before its publishing
 * compare-and-swap: so the worker stops in the middle of an operation on any fabric, without a hook in
 * the fabric or the object.
 *
 * @param object the benchmarked sequential object
 * @param stall  the stalled worker's stop
 * @param <S>    its state type
 */
record StallingObject<S>(SequentialObject<S> object, Stall stall) implements SequentialObject<S> {
    @Override
    public int stateBytes() {
        return object.stateBytes();
    }

    @Override
    public S initialState() {
        return object.initialState();
    }

    @Override
    public void store(S state, MemorySegment to) {
        object.store(state, to);
    }

    @Override
    public S load(MemorySegment from) {
        return object.load(from);
    }

    @Override
    public Step<S> apply(S state, long operation, long argument) {
        stall.parkIfArmed();
        return object.apply(state, operation, argument);
    }
}
