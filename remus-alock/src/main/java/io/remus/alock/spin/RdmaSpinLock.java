package io.remus.alock.spin;

import io.remus.alock.LockContext;
import io.remus.alock.LockHandle;
import io.remus.alock.LockTimeoutException;
import io.remus.alock.LockUsageException;
import io.remus.alock.LockWord;

/**
 * The baseline RDMA spin lock: acquire is an RDMA compare-and-swap loop from 0 to the owner's id
 * on word 0 of the {@link LockWord}, release an RDMA compare-and-swap from the owner's id back to 0.
 * Threads on the home node go through the NIC too (loopback), as they must: a CPU atomic on the word
 * would not be atomic with the remote threads' RDMA atomics. The release cannot be an RDMA WRITE of
 * 0: a device may apply a waiter's failing compare-and-swap as a load and a store of the loaded
 * value (Soft-RoCE does, {@code atomic_reply} in {@code rxe_resp.c}), and a WRITE landing between
 * the two is lost, leaving the word held by an owner that has gone (seen as a rare acquire timeout
 * over Soft-RoCE, the word naming another live thread that had released it).
 *
 * <p>Progress: deadlock-free, not starvation-free (a waiter can lose every race). Each failed
 * attempt costs a network round trip and NIC atomic bandwidth on the home node. A wait that times
 * out names the owner id the word last held, so a stuck lock can be traced to its holder (or to
 * this thread itself, when another handle of its context holds the word).
 */
public final class RdmaSpinLock extends LockHandle {
    private boolean held;

    /**
     * Creates this thread's handle on a spin lock word.
     *
     * @param context the thread's lock context
     * @param word    a zeroed {@link LockWord}
     */
    public RdmaSpinLock(LockContext context, long word) {
        super(context, word, "spin lock");
    }

    @Override
    public void lock() {
        context.checkOpen();
        if (held) {
            throw new LockUsageException(describe() + " is already held by this handle");
        }
        long me = context.ownerId();
        spin.start();
        long holder;
        while ((holder = thread.compareAndSwap(word, 0, me)) != 0) {
            try {
                spin.pause("acquiring", describe());
            } catch (LockTimeoutException e) {
                throw new LockTimeoutException(e.getMessage() + "; the word last held owner "
                        + Long.toHexString(holder) + (holder == me ? ", which is this thread's own id" : "")
                        + " (this thread is owner " + Long.toHexString(me) + ")");
            }
        }
        held = true;
    }

    @Override
    public void unlock() {
        context.checkOpen();
        if (!held) {
            throw new LockUsageException(describe() + " is not held by this handle");
        }
        held = false;
        long me = context.ownerId();
        long was = thread.compareAndSwap(word, me, 0);
        if (was != me) {
            throw new LockUsageException(describe() + " held owner " + Long.toHexString(was) + " at release, not this "
                    + "thread's " + Long.toHexString(me) + ": something other than this lock's RDMA atomics changed the "
                    + "word; it is left as it was");
        }
    }

    @Override
    public boolean isHeld() {
        return held;
    }
}
