package io.remus.core;

import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;

/**
 * The cluster's root pointer, a word in the control block of the first memory node, through which
 * threads find a shared data structure. All accesses go through the NIC.
 */
public final class Root {
    private final ComputeThread thread;
    private final long word;

    /**
     * The root pointer, reached through the calling thread's compute thread.
     *
     * @param thread the calling thread's compute thread
     */
    public Root(ComputeThread thread) {
        this.thread = thread;
        this.word = RemotePtr.offset(thread.segmentBase(thread.config().memoryNodes().first(), 0), ControlBlock.ROOT);
    }

    /** {@return the root pointer ({@link RemotePtr#NULL} until set)} */
    public long get() {
        return thread.read(word);
    }

    /**
     * Replaces the root pointer, whatever it was, with compare-and-swaps until one succeeds. Not an RDMA
     * WRITE: a WRITE racing another thread's {@link #compareAndSwap} can be lost on a device that applies
     * a failing compare-and-swap as a load and a store of the loaded value (Soft-RoCE does). Lock-free:
     * it retries only when another thread changed the root in between.
     *
     * @param ptr the new root pointer
     */
    public void set(long ptr) {
        long seen = thread.read(word);
        long was;
        while ((was = thread.compareAndSwap(word, seen, ptr)) != seen) {
            seen = was;
        }
    }

    /**
     * Replaces the root if it is {@code expected}.
     *
     * @param expected the root it must be
     * @param desired  the new root
     * @return the root it was (equal to {@code expected} when it was replaced)
     */
    public long compareAndSwap(long expected, long desired) {
        return thread.compareAndSwap(word, expected, desired);
    }
}
