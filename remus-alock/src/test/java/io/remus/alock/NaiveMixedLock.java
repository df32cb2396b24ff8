package io.remus.alock;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The broken lock that ALock exists to avoid: one word, compare-and-swapped by CPU atomics from the
 * home node and by RDMA atomics from elsewhere, which are not atomic with each other under
 * IBV_ATOMIC_HCA. Test-only.
 */
final class NaiveMixedLock implements Lock {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final ComputeThread thread;
    private final long word;
    private final long id;
    private final MemorySegment cpu;
    private final SpinBound spin;
    private boolean held;
    private long remoteAttempts;

    NaiveMixedLock(LockContext context, long word) {
        this.thread = context.thread();
        this.word = word;
        this.id = context.ownerId();
        this.cpu = RemotePtr.node(word) == thread.nodeId() ? thread.localSegment(word, 8) : null;
        this.spin = new SpinBound(context.options().acquireTimeout());
    }

    @Override
    public long word() {
        return word;
    }

    @Override
    public void lock() {
        spin.start();
        if (cpu != null) {
            while (!WORD.compareAndSet(cpu, 0L, 0L, id)) {
                spin.pause("naive lock");
            }
        } else {
            remoteAttempts++;
            while (thread.compareAndSwap(word, 0, id) != 0) {
                remoteAttempts++;
                spin.pause("naive lock");
            }
        }
        held = true;
    }

    @Override
    public void lock(long deadlineNanos) {
        spin.cap(deadlineNanos);
        try {
            lock();
        } finally {
            spin.uncap();
        }
    }

    @Override
    public void lock(WaitDeadline deadline) {
        spin.cap(deadline);
        try {
            lock();
        } finally {
            spin.uncap();
        }
    }

    @Override
    public void unlock() {
        held = false;
        if (cpu != null) {
            WORD.setVolatile(cpu, 0L, 0L);
        } else {
            thread.compareAndSwap(word, id, 0); // not a WRITE, which a failing NIC CAS can undo without any CPU atomic
        }
    }

    /** @return RDMA compare-and-swaps this handle has posted (0 on the home node) */
    long remoteAttempts() {
        return remoteAttempts;
    }

    @Override
    public boolean isHeld() {
        return held;
    }
}
