package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;

/**
 * A handle's allocations and frees of its blocks, with what they cost it counted apart from the object's own
 * operations: the allocator's round trips and compare-and-swaps. Used by the handle's owner only.
 */
final class AllocatorCosts {
    private final ComputeThread thread;
    private long roundTrips;
    private long compareAndSwaps;

    AllocatorCosts(ComputeThread thread) {
        this.thread = thread;
    }

    /** {@return a new block of {@code bytes} on memory node {@code node} (the allocator's costs, counted)} */
    long allocate(long bytes, int node) {
        long rt = thread.roundTrips();
        long cas = thread.postedOperations(Opcode.COMPARE_AND_SWAP);
        long block = thread.allocator().allocate(bytes, node);
        count(rt, cas);
        return block;
    }

    /** Frees {@code block} of {@code bytes} (the allocator's costs, counted). */
    void deallocate(long block, long bytes) {
        long rt = thread.roundTrips();
        long cas = thread.postedOperations(Opcode.COMPARE_AND_SWAP);
        thread.allocator().deallocate(block, bytes);
        count(rt, cas);
    }

    private void count(long roundTripsBefore, long compareAndSwapsBefore) {
        roundTrips += thread.roundTrips() - roundTripsBefore;
        compareAndSwaps += thread.postedOperations(Opcode.COMPARE_AND_SWAP) - compareAndSwapsBefore;
    }

    /** {@return the allocator's round trips so far} */
    long roundTrips() {
        return roundTrips;
    }

    /** {@return the allocator's compare-and-swaps so far} */
    long compareAndSwaps() {
        return compareAndSwaps;
    }
}
