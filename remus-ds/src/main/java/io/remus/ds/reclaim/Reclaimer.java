package io.remus.ds.reclaim;

import io.remus.core.error.BadArgumentException;

/**
 * Decides when a block that a data structure removed is freed: an operation runs inside a
 * {@link Guard} from {@link #enter()}, a block that is no longer reachable is handed to
 * {@link #retire(long, long)}, and the reclaimer frees it once no thread can still hold a
 * reference to it that it obtained inside a guard.
 *
 * <pre>{@code
 * try (Guard g = reclaimer.enter()) {
 *     long old = thread.read(slot);
 *     ...                                   // read old's block, build a replacement
 *     if (thread.compareAndSwap(slot, old, replacement) == old) {
 *         reclaimer.retire(old, NODE_BYTES); // unlinked: freed once no guard can still see it
 *     }
 * }
 * }</pre>
 *
 * <p>A reference is safe to use only inside the guard it was read in, and, where the guard's
 * {@link Guard#valid()} can turn false (a lease ran out), only after checking it, or after
 * {@link Guard#validate(long, long)} showed that the block still is the incarnation that was read.
 *
 * <p>One instance per {@link io.remus.core.ComputeThread}, used by that thread's owner only, like
 * the compute thread itself; {@link #unreclaimedBytes()} and the other counters may be read from
 * any thread (they are updated with plain writes, so another thread sees a recent value).
 */
public interface Reclaimer extends AutoCloseable {
    /**
     * Starts an operation: references read from here until the guard closes stay usable (see
     * {@link Guard} for the lease). Guards nest: an inner {@code enter()} returns the same guard
     * and only the outermost close ends the operation.
     *
     * @return the guard, to close when the operation ends (try-with-resources)
     */
    Guard enter();

    /**
     * Hands over a block that no thread can reach any more from the shared structure (it was
     * unlinked, and is not unlinked again): it is freed with the allocator once no guard that
     * could have read a reference to it is still open. Inside or outside a guard.
     *
     * @param block the block, as the allocator returned it
     * @param size  the size it was allocated with
     * @throws BadArgumentException when the block is null or the size not an allocation size
     */
    void retire(long block, long size);

    /**
     * A reclamation point, called outside any guard: frees the retired blocks that are safe to free
     * now. What that takes is the implementation's: a pass over the announcements
     * ({@link EpochReclaimer}), a cluster-wide barrier that every thread must call equally often
     * ({@link BarrierReclaimer}), or nothing ({@link NeverReclaimer}).
     *
     * @throws BadArgumentException when called inside a guard
     */
    void reclaim();

    /** {@return the bytes (sizes as passed to {@link #retire}) this reclaimer retired and has not freed} */
    long unreclaimedBytes();

    /** {@return the blocks this reclaimer retired and has not freed} */
    long unreclaimedBlocks();

    /** {@return the bytes ever passed to {@link #retire} on this reclaimer} */
    long retiredBytes();

    /**
     * Ends this reclaimer's use, outside any guard: frees what it safely can now and gives up its
     * resources (an announcement slot). Blocks still unreclaimed after it stay allocated (they are
     * counted by {@link #unreclaimedBytes()}). Idempotent.
     *
     * @throws BadArgumentException when called inside a guard
     */
    @Override
    void close();
}
