package io.remus.alock.spin;

import io.remus.alock.LockContext;
import io.remus.alock.LockHandle;
import io.remus.alock.LockTimeoutException;
import io.remus.alock.LockUsageException;
import io.remus.alock.LockWord;

/**
 * The baseline RDMA spin lock: acquire is an RDMA compare-and-swap loop from 0 to the owner's id
 * on word 0 of the {@link LockWord}, release an RDMA write of 0. Threads on the home node go
 * through the NIC too (loopback), as they must: a CPU atomic on the word would not be atomic with
 * the remote threads' RDMA atomics. The release may be a plain write because only the owner writes
 * while the word is non-zero, and a compare-and-swap that sees it non-zero stores nothing.
 *
 * <p>Progress: deadlock-free, not starvation-free (a waiter can lose every race). Each failed
 * attempt costs a network round trip and NIC atomic bandwidth on the home node. A wait that times
 * out names the owner id the word last held, so a stuck lock can be traced to its holder (or to
 * this thread itself, when another handle of its context holds the word).
 */
public final class RdmaSpinLock extends LockHandle {
    private boolean held;

    /**
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
        thread.write(word, 0);
    }

    @Override
    public boolean isHeld() {
        return held;
    }
}
