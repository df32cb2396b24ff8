package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.reclaim.Reclaimer;

/**
 * What a handle on an object that keeps blocks outside its root ({@link RemoteRegister}'s values,
 * {@link WaitFreeObject}'s states) adds to {@link ObjectHandle}: it allocates those blocks on the object's node
 * through {@link AllocatorCosts}, retires the ones it replaces through its thread's reclaimer, and reports what its
 * calls spent in the allocator, so that tests and benchmarks can tell the object's own cost from the allocator's.
 */
abstract class AllocatingHandle extends ObjectHandle {
    /** The reclaimer whose guards the handle's calls run under, and which takes the blocks they replace. */
    final Reclaimer reclaimer;
    /** The allocations (and counted frees) of this handle's calls. */
    final AllocatorCosts allocations;
    /** The object's memory node, where its blocks are allocated. */
    final int home;

    /**
     * @param thread    the handle's compute thread
     * @param reclaimer the reclaimer whose guards the handle's calls run under (its thread's)
     * @param identity  the handle's identity of the object's root
     * @param rootBytes bytes of the object's root, as given to {@link StructureIdentity#allocate}
     */
    AllocatingHandle(ComputeThread thread, Reclaimer reclaimer, StructureIdentity identity, long rootBytes) {
        super(thread, identity, rootBytes);
        this.reclaimer = reclaimer;
        this.allocations = new AllocatorCosts(thread);
        this.home = RemotePtr.node(ptr);
    }

    /**
     * Round trips this handle's calls spent in the allocator: its allocations, and for a {@link RemoteRegister} the
     * frees of overwritten blocks.
     *
     * @return the count
     */
    public final long allocatorRoundTrips() {
        return allocations.roundTrips();
    }

    /** {@return compare-and-swaps this handle's calls spent in the allocator (see {@link #allocatorRoundTrips()})} */
    public final long allocatorCompareAndSwaps() {
        return allocations.compareAndSwaps();
    }
}
