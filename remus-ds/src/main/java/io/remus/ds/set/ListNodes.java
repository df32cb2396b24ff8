package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.reclaim.Reclaimer;

/**
 * What a handle of a list-based set ({@link LockFreeListSet}, {@link LockFreeSkipListSet}, {@link LazyListSet}) does with
 * the nodes themselves, apart from its algorithm: it allocates them on the set's home node, keeping one spare
 * node between inserts and counting the allocator's round trips apart from the set's; it checks each node a
 * walk READs against the pointer it was read by (the torn-pointer rule below); it frees its spare node when
 * closed; it keeps the handle's {@link StructureIdentity} of the root, through which the last handle of a destroyed
 * set frees the set. One per handle, used by the handle's owner.
 *
 * <p><b>Torn pointers.</b> A node whose {@code self} word is not the pointer it was read by was read through a
 * pointer that an RDMA READ returned half old and half new, racing a compare-and-swap; the walk starts over
 * from the head. So does a pointer that names no bytes of a segment (the halves of two pointers that differ in
 * their upper 32 bits, on a memory node whose memory crosses a 4 GiB boundary): {@link #read} does not follow
 * it. A torn pointer is gone once that compare-and-swap completes, so {@link ListLayout#MAX_TORN}
 * such reads in a row through the same pointer, within one walk and its restarts, are a corrupted set
 * ({@link CorruptedMemoryException}). The good reads between do not reset the count: a walk restarted from
 * the head reads good nodes before it meets the bad pointer again.
 */
final class ListNodes {
    private final ComputeThread thread;
    private final String kind;
    private final StructureIdentity identity;
    private final long root;
    private final int home;
    private final int nodeBytes;
    private long spare = RemotePtr.NULL;
    private long allocatorRoundTrips;
    private int torn;
    private long tornPtr;
    /** Whether the current call has yet to check the root's handles word ({@link #readHead}). */
    private boolean headerDue;

    /**
     * @param thread    the handle's compute thread
     * @param identity  the handle's identity of the set's root
     * @param head      the head sentinel (its node is the home node)
     * @param nodeBytes bytes of every node's block
     */
    ListNodes(ComputeThread thread, StructureIdentity identity, long head, int nodeBytes) {
        this.thread = thread;
        this.kind = identity.kind().typeName();
        this.identity = identity;
        this.root = identity.ptr();
        this.home = RemotePtr.node(head);
        this.nodeBytes = nodeBytes;
    }

    /**
     * The spare node, allocated on the home node when the handle keeps none (the allocator's round trips,
     * counted in {@link #allocatorRoundTrips()}); it stays the spare until {@link #spareLinked()}.
     */
    long spare() {
        if (spare == RemotePtr.NULL) {
            long rt = thread.roundTrips();
            spare = thread.allocator().allocate(nodeBytes, home);
            allocatorRoundTrips += thread.roundTrips() - rt;
        }
        return spare;
    }

    /** The spare node was linked into the set: the next {@link #spare()} allocates another. */
    void spareLinked() {
        spare = RemotePtr.NULL;
    }

    /** Round trips spent in the allocator by {@link #spare()}. */
    long allocatorRoundTrips() {
        return allocatorRoundTrips;
    }

    /** Starts the torn-pointer count of a walk and its restarts. */
    void startWalk() {
        torn = 0;
        tornPtr = RemotePtr.NULL;
    }

    /**
     * READs {@code length} bytes of the node at {@code node} into the thread's buffer at {@code bufferOffset}
     * (one READ), unless {@code node} names no bytes of a segment of its memory node
     * ({@link ComputeThread#isPublished}): a pointer READ half old and half new, whose halves come from two
     * pointers that differ in their upper 32 bits, points outside every segment. Such a pointer is a torn read,
     * counted with the torn reads of {@link #selfCheck}; nothing is read.
     *
     * @return true when the node was READ; false when the pointer was torn (walk again)
     * @throws CorruptedMemoryException the {@link ListLayout#MAX_TORN}th torn read in a row through {@code node}
     */
    boolean read(long node, long bufferOffset, int length) {
        if (thread.isPublished(node, length)) {
            thread.read(node, bufferOffset, length);
            return true;
        }
        torn(node, node, "points outside every segment of its memory node");
        return false;
    }

    /**
     * Checks a node READ through {@code node}.
     *
     * @param self the node's {@code self} word, as READ
     * @return true when it is {@code node}; false when the read was torn (walk again)
     * @throws CorruptedMemoryException the {@link ListLayout#MAX_TORN}th torn read in a row through {@code node}
     */
    boolean selfCheck(long node, long self) {
        if (self == node) {
            return true;
        }
        torn(node, self, "led to a block that is no node of it (its self word is not its pointer)");
        return false;
    }

    private void torn(long node, long value, String what) {
        torn = node == tornPtr ? torn + 1 : 1;
        tornPtr = node;
        if (torn >= ListLayout.MAX_TORN) {
            throw new CorruptedMemoryException(node, value, "a node pointer of the " + kind + " at " + RemotePtr.toString(root)
                    + ", " + RemotePtr.toString(node) + ", " + what + ", " + ListLayout.MAX_TORN + " times in a row");
        }
    }

    /**
     * Starts a call of the set: checks that the handle is open, and makes the call's first {@link #readHead}
     * check the root's handles word.
     *
     * @throws ClosedSetException when the handle is closed
     */
    void startCall() {
        requireOpen();
        headerDue = true;
    }

    /**
     * One set call on {@code key}: checks the key ({@link ListLayout#checkKey}), starts the call
     * ({@link #startCall()}), for an insert ({@code insert}) takes the spare node ({@link #spare()}) before any
     * guard, then runs {@code attempt} under the reclaimer's guards ({@link GuardedCall#run}).
     */
    boolean call(Reclaimer reclaimer, GuardedCall.Attempt attempt, long key, boolean insert) {
        ListLayout.checkKey(key);
        startCall();
        if (insert) {
            spare();
        }
        return GuardedCall.run(reclaimer, attempt, key);
    }

    /**
     * READs {@code length} bytes of the head sentinel into the thread's buffer at {@code bufferOffset}; the
     * first time in a call ({@link #startCall()}) together with the root's handles word, into the buffer at
     * {@code headerOffset}, and checks it ({@link StructureIdentity#check}) before the head's bytes are used. Off
     * the home node that is one doorbell batch of two READs, the header's posted after the head's (one round
     * trip, as the head's READ alone); on the home node two CPU loads, the header's after the head's. No block of
     * the set is freed while this handle is open: a call that starts after any handle's destroy returned gets
     * {@link ClosedSetException} here, before it uses any data it read.
     *
     * @throws ClosedSetException when the set was destroyed
     */
    void readHead(long head, long bufferOffset, int length, long headerOffset) {
        if (!headerDue) {
            thread.read(head, bufferOffset, length);
            return;
        }
        headerDue = false;
        identity.readWithHeader(thread, head, bufferOffset, length, headerOffset);
    }

    /** @throws ClosedSetException when the handle is closed */
    void requireOpen() {
        identity.requireOpen();
    }

    /**
     * Closes the handle (again: nothing): frees its spare node, if it keeps one, and drops the handle from the
     * root's handles word ({@link StructureIdentity#close}); when the set was destroyed and this was its last
     * handle, {@code freeNodes} then the root are freed.
     *
     * @param freeNodes frees the set's nodes (see {@link #freeLevel0})
     */
    void close(Runnable freeNodes) {
        if (identity.isClosed()) {
            return;
        }
        try {
            freeSpare();
        } finally {
            identity.close(thread, ListLayout.ROOT_BYTES, freeNodes);
        }
    }

    /**
     * Destroys the set and closes the handle ({@link StructureIdentity#destroy}): frees the spare node, marks the
     * set destroyed, and when no other handle is open frees {@code freeNodes} then the root; else the last other
     * handle to close does.
     *
     * @param freeNodes frees the set's nodes (see {@link #freeLevel0})
     * @throws ClosedSetException when the handle is closed, or another handle destroyed the set first (this
     *                            handle is closed after)
     */
    void destroy(Runnable freeNodes) {
        requireOpen();
        try {
            freeSpare();
        } finally {
            identity.destroy(thread, ListLayout.ROOT_BYTES, freeNodes);
        }
    }

    private void freeSpare() {
        if (spare != RemotePtr.NULL) {
            thread.allocator().deallocate(spare, nodeBytes);
            spare = RemotePtr.NULL;
        }
    }

    /**
     * Frees every node linked at level 0 from {@code head} (marked ones included): one 8-byte READ and one free
     * per node. Only for the last handle of a destroyed set, from {@link #close} or {@link #destroy}.
     *
     * @param nextOffset the offset of a node's level-0 {@code next} word
     */
    void freeLevel0(long head, long nextOffset) {
        long node = head;
        while (node != RemotePtr.NULL) {
            long next = ListLayout.unmarked(thread.read(RemotePtr.offset(node, nextOffset)));
            thread.allocator().deallocate(node, nodeBytes);
            node = next;
        }
    }
}
