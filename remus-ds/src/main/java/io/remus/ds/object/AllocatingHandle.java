package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.ds.identity.StructureIdentity;

/**
 * What a handle on an object that keeps blocks outside its root ({@link RemoteRegister}'s values,
 * {@link WaitFreeObject}'s states) adds to {@link ObjectHandle}: it allocates those blocks through
 * {@link AllocatorCosts}, and reports what its calls spent in the allocator, so that tests and benchmarks can tell
 * the object's own cost from the allocator's.
 */
abstract class AllocatingHandle extends ObjectHandle {
    /** The allocations (and counted frees) of this handle's calls. */
    final AllocatorCosts allocations;

    /**
     * @param thread    the handle's compute thread
     * @param identity  the handle's identity of the object's root
     * @param rootBytes bytes of the object's root, as given to {@link StructureIdentity#allocate}
     */
    AllocatingHandle(ComputeThread thread, StructureIdentity identity, long rootBytes) {
        super(thread, identity, rootBytes);
        this.allocations = new AllocatorCosts(thread);
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
