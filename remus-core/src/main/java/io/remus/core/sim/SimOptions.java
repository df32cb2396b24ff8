package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.BlockHeader;

/**
 * Knobs of the simulated fabric.
 *
 * @param executionLatencyNanos  delay between posting a work request and its execution at the target
 * @param completionDelayNanos   delay between execution and the completion becoming pollable
 * @param transportTimeoutNanos  how long a request to a node that stopped answering, or across a link a
 *                               {@linkplain SimFabric#partition partition} cut, waits before it completes with
 *                               {@code RETRY_EXCEEDED}
 * @param yieldWhileTearing      yield the executing thread between the 8-byte pieces of a transfer
 * @param yieldInsideNicAtomics  yield between the load and the store of a NIC atomic, widening the
 *                               window in which a CPU atomic, a CPU store or an RDMA WRITE on the
 *                               same word is lost
 * @param tearWords              store each aligned 8-byte piece of an RDMA WRITE as two 4-byte halves,
 *                               low half first, as Soft-RoCE's responder can (its memcpy): a CPU reading
 *                               the word meanwhile sees the new low half beside the old high half (with
 *                               {@code yieldWhileTearing}, the transfer yields between the halves too)
 * @param poisonFreedBlocks      when a compare-and-swap succeeds and changes a valid {@link BlockHeader}
 *                               from state {@link BlockHeader#ALLOCATED} to {@link BlockHeader#FREE} (the
 *                               allocator freeing the block behind the word), fill the block's payload with
 *                               {@link #POISON}, before the compare-and-swap completes: a reader of freed
 *                               memory then sees the pattern instead of plausible stale data. The payload is
 *                               the block's size class's bytes after the header, cut at the end of the
 *                               registration. Memory that an allocator links into a free list must be
 *                               written after the header turned free, or the poison overwrites it; a free
 *                               header swapped for another (a pool push's tag) poisons nothing.
 * @param tearReads              load each aligned 8-byte piece of an RDMA READ as two 4-byte halves, low
 *                               half first (with {@code yieldWhileTearing}, yielding between them), as
 *                               Soft-RoCE's responder can: a READ racing a compare-and-swap or a WRITE of
 *                               the word returns the old high half beside the new low half, a word that
 *                               was never stored
 * @param costModel              what each work request costs and how NIC atomics on one word queue
 *                               ({@link SimCostModel}); its costs add to {@code executionLatencyNanos} and
 *                               {@code completionDelayNanos}
 * @param rnrTimerNanos          how long a SEND or WRITE_WITH_IMMEDIATE that finds no receive posted waits before
 *                               it tries again, as verbs' receiver-not-ready NAK timer; after
 *                               {@code rnrRetries} tries again it completes with {@code RECEIVER_NOT_READY},
 *                               and while it waits the queue pair's later requests wait behind it. 0 fails at
 *                               once
 * @param rnrRetries             receiver-not-ready retries of a message, 0 to 7, 7 meaning forever (verbs'
 *                               {@code rnr_retry}); the default is the verbs fabric's {@link #RNR_RETRIES}
 * @param straddleOffset         {@link #NATIVE_ADDRESSES} to register memory at its native addresses, or the byte
 *                               of each registration (0..4 GiB, rounded down to 64) that the simulator places on
 *                               a 4 GiB boundary of simulated addresses, so that a pointer torn between two of
 *                               its pointers points outside every segment ({@link #withStraddleOffset})
 * @param reorderWrites          break the order of WRITEs within one doorbell: where a post holds a WRITE followed
 *                               by another WRITE, the queue pair applies the later one first, pauses
 *                               {@link #REORDER_WINDOW_NANOS} (so that a CPU polling the later WRITE's bytes sees them
 *                               while the earlier WRITE's bytes are still old), then applies the earlier one;
 *                               completions keep their order. Verbs promises no order in which a responder's CPU sees
 *                               two WRITEs' bytes, so this is hardware the library's ordering rule must survive
 *                               (docs/DATA-STRUCTURES.md, "Ordering rule for WRITEs")
 */
public record SimOptions(long executionLatencyNanos, long completionDelayNanos, long transportTimeoutNanos,
                         boolean yieldWhileTearing, boolean yieldInsideNicAtomics, boolean tearWords,
                         boolean poisonFreedBlocks, boolean tearReads, SimCostModel costModel, long rnrTimerNanos,
                         int rnrRetries, long straddleOffset, boolean reorderWrites) {
    /**
     * The word a poisoned block is filled with ({@link #poisonFreedBlocks()}); where a payload cut at
     * its registration's end leaves less than a word, the bytes of the word's little-endian layout.
     */
    public static final long POISON = 0xDEADBEEF_0BADF00DL;

    /**
     * Receiver-not-ready retries of a message before it fails, by default: the verbs fabric's (6; verbs' 7
     * retries forever).
     */
    public static final int RNR_RETRIES = 6;

    /** The {@code rnrRetries} that retries forever, as verbs' {@code rnr_retry} 7. */
    public static final int RNR_RETRY_FOREVER = 7;

    /** 4 GiB, the span of a pointer's lower 32 bits. */
    static final long FOUR_GIB = 1L << 32;

    /** The {@code straddleOffset} that keeps registrations at the native addresses of their memory. */
    public static final long NATIVE_ADDRESSES = -1;

    /** The verbs fabric's receiver-not-ready timer: 0.64 ms, the responder's minimum at timer code 12. */
    public static final long DEFAULT_RNR_TIMER_NANOS = 640_000;

    /** How long, with {@link #reorderWrites()}, the earlier WRITE of a reordered pair lands after the later one: 1 ms. */
    public static final long REORDER_WINDOW_NANOS = 1_000_000;

    /**
     * Validates the knobs.
     *
     * @throws NullPointerException when {@code costModel} is null
     * @throws BadArgumentException when a delay is negative, the transport timeout not positive, the
     *                              receiver-not-ready retries outside 0..7 or {@code straddleOffset} below -1 or
     *                              above 4 GiB
     */
    public SimOptions {
        java.util.Objects.requireNonNull(costModel, "costModel");
        if (straddleOffset < NATIVE_ADDRESSES || straddleOffset > FOUR_GIB) {
            throw new BadArgumentException("straddleOffset must be -1 (native addresses) or 0.." + FOUR_GIB + ", got "
                    + straddleOffset);
        }
        if (rnrRetries < 0 || rnrRetries > RNR_RETRY_FOREVER) {
            throw new BadArgumentException("rnrRetries must be 0..7 (7: forever), got " + rnrRetries);
        }
        if (executionLatencyNanos < 0 || completionDelayNanos < 0 || transportTimeoutNanos <= 0 || rnrTimerNanos < 0) {
            throw new BadArgumentException("simulator delays must be non-negative and the transport timeout positive, got "
                    + "executionLatencyNanos " + executionLatencyNanos + ", completionDelayNanos " + completionDelayNanos
                    + ", transportTimeoutNanos " + transportTimeoutNanos + ", rnrTimerNanos " + rnrTimerNanos);
        }
    }

    /**
     * {@return no injected delays, a 100 ms transport timeout, no yielding, whole 8-byte stores and loads, no
     *         poisoning, cost model {@link SimCostModel#NONE}, the verbs fabric's receiver-not-ready timer
     *         ({@link #DEFAULT_RNR_TIMER_NANOS}) and retries ({@link #RNR_RETRIES}), registrations at native
     *         addresses ({@link #NATIVE_ADDRESSES}), the WRITEs of a doorbell applied in order}
     */
    public static SimOptions defaults() {
        return new SimOptions(0, 0, 100_000_000L, false, false, false, false, false, SimCostModel.NONE,
                DEFAULT_RNR_TIMER_NANOS, RNR_RETRIES, NATIVE_ADDRESSES, false);
    }

    /**
     * Sets the execution latency.
     *
     * @param nanos execution latency
     * @return a copy with it
     */
    public SimOptions withExecutionLatencyNanos(long nanos) {
        return new SimOptions(nanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing, yieldInsideNicAtomics, tearWords, poisonFreedBlocks, tearReads, costModel, rnrTimerNanos, rnrRetries, straddleOffset, reorderWrites);
    }

    /**
     * Sets the completion delay.
     *
     * @param nanos completion delay
     * @return a copy with it
     */
    public SimOptions withCompletionDelayNanos(long nanos) {
        return new SimOptions(executionLatencyNanos, nanos, transportTimeoutNanos, yieldWhileTearing, yieldInsideNicAtomics, tearWords, poisonFreedBlocks, tearReads, costModel, rnrTimerNanos, rnrRetries, straddleOffset, reorderWrites);
    }

    /**
     * Sets the transport timeout.
     *
     * @param nanos transport timeout
     * @return a copy with it
     */
    public SimOptions withTransportTimeoutNanos(long nanos) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, nanos, yieldWhileTearing, yieldInsideNicAtomics, tearWords, poisonFreedBlocks, tearReads, costModel, rnrTimerNanos, rnrRetries, straddleOffset, reorderWrites);
    }

    /**
     * Chooses whether transfers yield between pieces.
     *
     * @param yield whether transfers yield between pieces
     * @return a copy with it
     */
    public SimOptions withYieldWhileTearing(boolean yield) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yield, yieldInsideNicAtomics, tearWords, poisonFreedBlocks, tearReads, costModel, rnrTimerNanos, rnrRetries, straddleOffset, reorderWrites);
    }

    /**
     * Chooses whether NIC atomics yield between load and store.
     *
     * @param yield whether NIC atomics yield between load and store
     * @return a copy with it
     */
    public SimOptions withYieldInsideNicAtomics(boolean yield) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing, yield, tearWords, poisonFreedBlocks, tearReads, costModel, rnrTimerNanos, rnrRetries, straddleOffset, reorderWrites);
    }

    /**
     * Chooses whether RDMA WRITEs tear 8-byte words.
     *
     * @param tear whether RDMA WRITEs store 8-byte words as two halves
     * @return a copy with it
     */
    public SimOptions withTearWords(boolean tear) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing,
                yieldInsideNicAtomics, tear, poisonFreedBlocks, tearReads, costModel, rnrTimerNanos, rnrRetries, straddleOffset, reorderWrites);
    }

    /**
     * Chooses whether freeing a block poisons its payload.
     *
     * @param poison whether freeing a block fills its payload with {@link #POISON}
     * @return a copy with it
     */
    public SimOptions withPoisonFreedBlocks(boolean poison) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing,
                yieldInsideNicAtomics, tearWords, poison, tearReads, costModel, rnrTimerNanos, rnrRetries, straddleOffset, reorderWrites);
    }

    /**
     * Chooses whether RDMA READs tear 8-byte words.
     *
     * @param tear whether RDMA READs load 8-byte words as two halves
     * @return a copy with it
     */
    public SimOptions withTearReads(boolean tear) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing,
                yieldInsideNicAtomics, tearWords, poisonFreedBlocks, tear, costModel, rnrTimerNanos, rnrRetries, straddleOffset, reorderWrites);
    }

    /**
     * Chooses what the simulated NIC charges per work request.
     *
     * @param costModel the cost model, such as {@link SimCostModel#CONNECTX5}
     * @return a copy with it
     * @throws NullPointerException when {@code costModel} is null
     */
    public SimOptions withCostModel(SimCostModel costModel) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing,
                yieldInsideNicAtomics, tearWords, poisonFreedBlocks, tearReads, costModel, rnrTimerNanos, rnrRetries, straddleOffset, reorderWrites);
    }

    /**
     * Sets the receiver-not-ready timer.
     *
     * @param nanos the receiver-not-ready timer ({@link #rnrTimerNanos()}); 0: a message with no receive posted
     *              fails at once
     * @return a copy with it
     */
    public SimOptions withRnrTimerNanos(long nanos) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing,
                yieldInsideNicAtomics, tearWords, poisonFreedBlocks, tearReads, costModel, nanos, rnrRetries, straddleOffset, reorderWrites);
    }

    /**
     * Sets the number of receiver-not-ready retries.
     *
     * @param retries receiver-not-ready retries ({@link #rnrRetries()}), 0 to 7, 7 meaning forever
     * @return a copy with them
     * @throws BadArgumentException naming the value, when it is out of range
     */
    public SimOptions withRnrRetries(int retries) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing,
                yieldInsideNicAtomics, tearWords, poisonFreedBlocks, tearReads, costModel, rnrTimerNanos, retries, straddleOffset, reorderWrites);
    }

    /**
     * Places every registration at simulated addresses across a 4 GiB boundary ({@link #straddleOffset()}).
     *
     * @param offset the byte of each registration that lies on the boundary (rounded down to a multiple of 64; a
     *               registration shorter than twice it has its middle there), or {@link #NATIVE_ADDRESSES}
     * @return a copy with it
     * @throws BadArgumentException naming the value, when it is below -1 or above 4 GiB
     */
    public SimOptions withStraddleOffset(long offset) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing,
                yieldInsideNicAtomics, tearWords, poisonFreedBlocks, tearReads, costModel, rnrTimerNanos, rnrRetries, offset, reorderWrites);
    }

    /**
     * Chooses whether the WRITEs of one doorbell may land out of order ({@link #reorderWrites()}).
     *
     * @param reorder whether a later WRITE of a post is applied before the earlier one
     * @return a copy with it
     */
    public SimOptions withReorderWrites(boolean reorder) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing,
                yieldInsideNicAtomics, tearWords, poisonFreedBlocks, tearReads, costModel, rnrTimerNanos, rnrRetries,
                straddleOffset, reorder);
    }
}
