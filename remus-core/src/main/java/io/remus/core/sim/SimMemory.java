package io.remus.core.sim;

import io.remus.core.time.ThreadTime;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How the simulated NIC touches memory: transfers in 8-byte pieces (each aligned piece atomic,
 * the whole transfer not), and atomics as a load then a store under the target's NIC lock, which
 * is atomic against other NIC atomics only (IBV_ATOMIC_HCA). A compare-and-swap stores even when
 * the compare fails (the value it loaded), as Soft-RoCE's responder does ({@code atomic_reply} in
 * {@code rxe_resp.c}: {@code *vaddr = value} either way): a CPU store or an RDMA WRITE that lands
 * between its load and its store is lost, so a word that NIC atomics touch must change only by NIC
 * atomics.
 */
final class SimMemory {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle HALF = ValueLayout.JAVA_INT.varHandle();
    /** Where a word's low 32 bits are: first on a little-endian machine. */
    private static final long LOW_HALF = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN ? 0 : 4;

    private SimMemory() {
    }

    static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, int length, boolean yield) {
        copy(src, srcOffset, dst, dstOffset, length, yield, false);
    }

    /**
     * @param tearWords store each aligned 8-byte piece as two 4-byte halves, low first (Soft-RoCE's
     *                  RDMA WRITE, {@link SimOptions#tearWords()})
     */
    static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, int length, boolean yield,
                     boolean tearWords) {
        copy(src, srcOffset, dst, dstOffset, length, yield, tearWords, false);
    }

    /**
     * @param tearWords store each aligned 8-byte piece as two 4-byte halves, low first (Soft-RoCE's
     *                  RDMA WRITE, {@link SimOptions#tearWords()})
     * @param tearLoads load each aligned 8-byte piece as two 4-byte halves, low first (Soft-RoCE's
     *                  RDMA READ, {@link SimOptions#tearReads()})
     */
    static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, int length, boolean yield,
                     boolean tearWords, boolean tearLoads) {
        boolean aligned = ((src.address() + srcOffset) & 7) == 0 && ((dst.address() + dstOffset) & 7) == 0;
        int done = 0;
        while (done < length) {
            int piece = Math.min(8, length - done);
            if (aligned && piece == 8 && tearWords) {
                long value = (long) WORD.getVolatile(src, srcOffset + done);
                HALF.setVolatile(dst, dstOffset + done + LOW_HALF, (int) value);
                if (yield) {
                    ThreadTime.yield();
                }
                HALF.setVolatile(dst, dstOffset + done + 4 - LOW_HALF, (int) (value >>> 32));
            } else if (aligned && piece == 8 && tearLoads) {
                long low = (int) HALF.getVolatile(src, srcOffset + done + LOW_HALF) & 0xFFFF_FFFFL;
                if (yield) {
                    ThreadTime.yield();
                }
                long high = (int) HALF.getVolatile(src, srcOffset + done + 4 - LOW_HALF);
                WORD.setVolatile(dst, dstOffset + done, (high << 32) | low);
            } else if (aligned && piece == 8) {
                WORD.setVolatile(dst, dstOffset + done, (long) WORD.getVolatile(src, srcOffset + done));
            } else {
                MemorySegment.copy(src, srcOffset + done, dst, dstOffset + done, piece);
            }
            done += piece;
            if (yield && done < length) {
                ThreadTime.yield();
            }
        }
    }

    /**
     * A NIC atomic: a load then a store under the target NIC's lock (atomic among NIC atomics only). With
     * {@code yield} the thread yields between them while it holds the lock, so a thread of a virtual-time run
     * waiting for the lock must not block in the JDK: it takes the lock by checking it in a wait loop instead.
     */
    static long nicAtomic(ReentrantLock nicLock, MemorySegment target, long offset, boolean add, long operand, long swap,
                          boolean yield) {
        if (ThreadTime.isScheduled()) {
            while (!nicLock.tryLock()) {
                ThreadTime.onSpinWait("the NIC's atomic lock");
            }
        } else {
            nicLock.lock();
        }
        try {
            long old = (long) WORD.getVolatile(target, offset);
            if (yield) {
                ThreadTime.yield();
            }
            WORD.setVolatile(target, offset, add ? old + operand : old == operand ? swap : old);
            return old;
        } finally {
            nicLock.unlock();
        }
    }

    /**
     * {@link SimOptions#poisonFreedBlocks()}: when a successful compare-and-swap at {@code offset} of
     * {@code target} (node {@code nodeId}, address {@code address}) changed the allocated header
     * {@code previous} of the block behind it to the free header {@code stored} (the block was just
     * freed), fills that block's payload with {@link SimOptions#POISON}, up to the end of the segment.
     * A free header changed to another free header (an allocator's pool push bumping its tag) is no free:
     * the block's payload, the pool's link among it, is left alone.
     *
     * @return the bytes poisoned, 0 when the swap freed no block
     */
    static long poisonIfFreed(MemorySegment target, long offset, int nodeId, long address, long previous, long stored) {
        long block = RemotePtr.of(nodeId, address + BlockHeader.SIZE);
        if (BlockHeader.state(stored) != BlockHeader.FREE || !BlockHeader.isHeaderOf(block, stored)
                || BlockHeader.state(previous) != BlockHeader.ALLOCATED || !BlockHeader.isHeaderOf(block, previous)) {
            return 0;
        }
        long start = offset + BlockHeader.SIZE;
        long length = Math.min(SizeClasses.size(BlockHeader.sizeClass(stored)), target.byteSize() - start);
        long done = 0;
        while (done + 8 <= length) {
            WORD.setVolatile(target, start + done, SimOptions.POISON);
            done += 8;
        }
        for (; done < length; done++) {
            target.set(ValueLayout.JAVA_BYTE, start + done, (byte) (SimOptions.POISON >>> (8 * (done & 7))));
        }
        return length;
    }

    static void storeResult(MemorySegment local, long offset, long value) {
        local.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, value);
    }
}
