package io.remus.core.sim;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

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

    private SimMemory() {
    }

    static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, int length, boolean yield) {
        boolean aligned = ((src.address() + srcOffset) & 7) == 0 && ((dst.address() + dstOffset) & 7) == 0;
        int done = 0;
        while (done < length) {
            int piece = Math.min(8, length - done);
            if (aligned && piece == 8) {
                WORD.setVolatile(dst, dstOffset + done, (long) WORD.getVolatile(src, srcOffset + done));
            } else {
                MemorySegment.copy(src, srcOffset + done, dst, dstOffset + done, piece);
            }
            done += piece;
            if (yield && done < length) {
                Thread.yield();
            }
        }
    }

    static long nicAtomic(Object nicLock, MemorySegment target, long offset, boolean add, long operand, long swap,
                          boolean yield) {
        synchronized (nicLock) {
            long old = (long) WORD.getVolatile(target, offset);
            if (yield) {
                Thread.yield();
            }
            WORD.setVolatile(target, offset, add ? old + operand : old == operand ? swap : old);
            return old;
        }
    }

    static void storeResult(MemorySegment local, long offset, long value) {
        local.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, value);
    }
}
