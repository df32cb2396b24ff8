package io.remus.ds.replicate;

import java.lang.foreign.MemorySegment;

/**
 * The deterministic state machine a replica applies committed log entries to, in log order. Every replica
 * applies the same entries in the same order, so replicas whose machines are deterministic (the state after
 * an entry depends only on the state before it and the entry) stay identical.
 *
 * <p><b>Snapshots</b> (after Raft's log compaction: Ongaro, "Consensus: Bridging Theory and Practice", PhD
 * thesis, Stanford 2014, ch. 5, memory-based snapshots and InstallSnapshot). A machine that implements
 * {@link #snapshot()} and {@link #restore} lets its replica keep an image of its state in the member's
 * snapshot region ({@link LogReplica#takeSnapshot}), from which a leader brings back a member further behind
 * than the ring ({@link LogLeader#reattach}), a new leader behind the ring recovers ({@link LogLeader#takeOver})
 * and a restarted member starts ({@link LogReplica#restart}). Both have defaults, so a machine of
 * {@link #apply} alone compiles unchanged and takes no snapshots.
 */
@FunctionalInterface
public interface StateMachine {
    /**
     * Applies one committed entry. Called on the replica's compute thread, once per entry, in index order
     * from the replica's first entry (0, or the count a restored snapshot covers), never for an entry that is
     * not committed.
     *
     * @param index the entry's position in the log, 0 for the first
     * @param entry the entry's bytes: a read-only view of the replica's log, valid only during the call (copy
     *              what is kept)
     */
    void apply(long index, MemorySegment entry);

    /**
     * An image of the machine's state after every entry applied so far, from which {@link #restore} rebuilds
     * it on any member. Called on the replica's compute thread by {@link LogReplica#takeSnapshot}, between
     * {@link #apply} calls.
     *
     * @return the image's bytes (copied by the caller; at most the replica's snapshot capacity), or null when
     *         the machine takes no snapshots (the default)
     */
    default MemorySegment snapshot() {
        return null;
    }

    /**
     * Replaces the machine's whole state with the one an image of {@link #snapshot} describes. Called on the
     * replica's compute thread, only with an image whose checksum held over the replica's own copy of it;
     * afterwards {@link #apply} continues at index {@code covers}.
     *
     * @param image  the image's bytes: a read-only view valid only during the call
     * @param covers how many entries the image's state includes (the next entry applied is this index)
     * @throws UnsupportedOperationException by default: a machine without snapshots cannot be restored (give
     *                                       its replica no snapshot region)
     */
    default void restore(MemorySegment image, long covers) {
        throw new UnsupportedOperationException("this state machine takes no snapshots; it cannot restore one covering "
                + covers + " entries");
    }
}
