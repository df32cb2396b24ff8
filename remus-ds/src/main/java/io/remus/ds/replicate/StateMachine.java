package io.remus.ds.replicate;

import java.lang.foreign.MemorySegment;

/**
 * The deterministic state machine a replica applies committed log entries to, in log order. Every replica
 * applies the same entries in the same order, so replicas whose machines are deterministic (the state after
 * an entry depends only on the state before it and the entry) stay identical. Snapshots and restoring a
 * machine from one are not part of this interface yet: a replica starts from the empty log, and one further
 * behind than the other members' rings cannot be brought back.
 */
@FunctionalInterface
public interface StateMachine {
    /**
     * Applies one committed entry. Called on the replica's compute thread, once per entry, in index order
     * from 0, never for an entry that is not committed.
     *
     * @param index the entry's position in the log, 0 for the first
     * @param entry the entry's bytes: a read-only view of the replica's log, valid only during the call (copy
     *              what is kept)
     */
    void apply(long index, MemorySegment entry);
}
