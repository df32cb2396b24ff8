package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.reclaim.Reclaimer;

/**
 * What a handle on each list-based set ({@link LockFreeListSet}, {@link LockFreeSkipListSet}, {@link LazyListSet})
 * keeps and does the same way: its compute thread and reclaimer, the set's root, head and tail sentinels, its
 * {@link ListNodes}, and its close and destroy through them. Used by the handle's owner only, like its compute
 * thread. Public so that code outside the package can name what the three have in common (a {@code var} or a
 * conditional expression over two of them has this type); only they extend it, the two lock-free ones through
 * {@link LockFreeSetHandle}.
 */
public abstract sealed class ListSetHandle implements RemoteSet permits LockFreeSetHandle, LazyListSet {
    /** The handle's compute thread. */
    final ComputeThread thread;
    /** The reclaimer whose guards the handle's calls run under. */
    final Reclaimer reclaimer;
    /** The set's root. */
    final long root;
    /** The head sentinel. */
    final long head;
    /** The tail sentinel. */
    final long tail;
    /** The handle's nodes, spare and identity of the root. */
    final ListNodes nodes;

    /**
     * @param thread    the handle's compute thread
     * @param reclaimer the reclaimer whose guards the handle's calls run under
     * @param identity  the handle's identity of the set's root
     * @param head      the head sentinel (its node is the home node)
     * @param tail      the tail sentinel
     * @param nodeBytes bytes of every node's block
     */
    ListSetHandle(ComputeThread thread, Reclaimer reclaimer, StructureIdentity identity, long head, long tail,
                  int nodeBytes) {
        this.thread = thread;
        this.reclaimer = reclaimer;
        this.root = identity.ptr();
        this.head = head;
        this.tail = tail;
        this.nodes = new ListNodes(thread, identity, head, nodeBytes);
    }

    /** Frees every node of the set still linked, marked ones included: the last handle of a destroyed set. */
    abstract void freeNodes();

    @Override
    public final long ptr() {
        return root;
    }

    /**
     * Round trips this handle spent in the allocator (new nodes), so that tests and benchmarks can tell the
     * set's own cost from the allocator's.
     *
     * @return the count
     */
    public final long allocatorRoundTrips() {
        return nodes.allocatorRoundTrips();
    }

    /**
     * Closes this handle (again: nothing): frees its spare node, if it keeps one, and drops the handle from the
     * set's root (one fetch-and-add, {@link StructureIdentity#close}). When the set was destroyed and this was its
     * last open handle, frees the set: every node still linked (one READ and one free per node), then the root.
     */
    @Override
    public final void close() {
        nodes.close(this::freeNodes);
    }

    /**
     * Destroys the set and closes this handle: one compare-and-swap of the root's handles word marks the set
     * destroyed ({@link StructureIdentity#destroy}). When no other handle is open the set is freed here: every node
     * still linked, marked ones included (one READ and one free per node), then the root; else the last other
     * handle to {@link #close()} frees it, so no handle ever reads a freed node. Of two destroys of one set, in any
     * handles and processes, exactly one marks it; the other closes its handle and throws
     * {@link ClosedSetException}. Later attaches throw {@link ClosedSetException}, and so does every call of
     * another handle, in any process, that starts after this destroy returned; a call concurrent with the
     * destroy completes on the set's memory, intact, before or after it.
     *
     * @throws ClosedSetException when this handle is closed, or another handle destroyed the set first
     */
    public final void destroy() {
        nodes.destroy(this::freeNodes);
    }
}
