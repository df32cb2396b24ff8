package io.remus.ds.reclaim;

import io.remus.core.memory.BlockHeader;

/**
 * One operation's protection, from {@link Reclaimer#enter()} to {@link #close()}: a block that was
 * reachable when a reference to it was read inside the guard is not freed before the guard closes,
 * as long as the guard is {@link #valid()}.
 *
 * <p>A guard of a reclaimer with leases ({@link EpochReclaimer}) becomes invalid when its lease runs
 * out (its thread stalled longer than the lease): from then on other threads free blocks without
 * waiting for it, and any block it reads may have been freed and reused. An operation checks
 * {@link #valid()} (or {@link #check()}) after reading a block and before trusting what it read;
 * when the guard is no longer valid it either restarts (closes this guard and enters a new one), or
 * revalidates the blocks it holds by their {@link BlockHeader} incarnation with
 * {@link #validate(long, long)}. Reclaimers without leases never invalidate a guard.
 *
 * <p>The guard object is the reclaimer's own and is reused by its next {@code enter()}; it is
 * confined to the reclaimer's thread.
 */
public interface Guard extends AutoCloseable {
    /**
     * Whether the guard still protects what it reads: true until its lease runs out (checked
     * against this node's clock). A reference read before a check that returned true was safe to
     * read from.
     *
     * @return whether the lease is held
     */
    boolean valid();

    /**
     * How much of the lease is left, on the reclaimer's clock: for an operation that must stop a wait
     * before the lease runs out (a lock wait on a word inside a block read in this guard).
     *
     * @return milliseconds left (0 or less once the lease ran out or the guard is closed), or
     *         {@link Long#MAX_VALUE} for a guard without a lease (the default)
     */
    default long leaseLeftMillis() {
        return Long.MAX_VALUE;
    }

    /**
     * Renews the lease of a valid guard: a full lease from now, for an operation that must keep the blocks
     * it read while it waits and cannot withdraw from the wait (a queue lock's waiter, whose queue node
     * its predecessor will write to). Reclamation is held back for as long as the guard keeps renewing, as
     * plain epochs would be: a caller renews only within a wait bounded by its own deadline. A renewal
     * that lands after the old lease ran out renews nothing (a reclaimer may have counted the lease as run
     * out meanwhile) and answers false.
     *
     * <p>Cost: none for a guard without a lease (the default, which answers {@link #valid()}); with
     * {@link EpochReclaimer}, a CPU store on a memory node, else one RDMA compare-and-swap (two when it
     * landed too late and the old deadline is announced again).
     *
     * @return whether the guard is valid, with the renewed lease
     */
    default boolean renewLease() {
        return valid();
    }

    /**
     * {@link #valid()}, as an exception for an operation that restarts by catching it.
     *
     * @throws LeaseExpiredException when the guard's lease ran out
     */
    void check();

    /**
     * Reads a block's header (one READ, a CPU read when the block is on this node): the block's
     * incarnation when it is allocated, for a later {@link #validate(long, long)}.
     *
     * @param block a block pointer
     * @return its incarnation (0..2<sup>32</sup>-1), or -1 when its header is not an allocated header of
     *         this block (it was freed, or the word is no header at all)
     */
    long incarnation(long block);

    /**
     * Reads a block's header (one READ, a CPU read when the block is on this node) and tells whether
     * the block is still allocated in the given incarnation: when it is, and {@code expected} was
     * read before the block's contents, those contents were read from that incarnation (a free and
     * every reuse change the incarnation). Independent of the lease, so it is how an invalid guard
     * revalidates.
     *
     * @param block    a block pointer
     * @param expected the incarnation read before (from {@link #incarnation(long)}, or stored beside
     *                 the pointer)
     * @return whether the header is the allocated header of {@code block} in incarnation {@code expected}
     */
    boolean validate(long block, long expected);

    /** Ends the operation (the outermost close of nested guards); references read in it must not be used after. */
    @Override
    void close();
}
