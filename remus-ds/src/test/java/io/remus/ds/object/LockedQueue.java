package io.remus.ds.object;

import io.remus.alock.Lock;
import io.remus.core.ComputeThread;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The bounded FIFO queue of {@link WaitFreeQueue}, with the same layout ({head, size, ring...}), kept in
 * place and protected by a lock instead: an operation locks, READs the whole queue, changes it in the
 * thread's memory, WRITEs it back and unlocks. Blocking: a holder that stalls stops every other thread.
 * The comparison object of {@link LockedQueueComparisonTest}.
 */
final class LockedQueue {
    private final ComputeThread thread;
    private final Lock lock;
    private final long block;
    private final int elements;
    private final MemorySegment copy;
    private long value;

    LockedQueue(ComputeThread thread, Lock lock, long block, int elements) {
        this.thread = thread;
        this.lock = lock;
        this.block = block;
        this.elements = elements;
        this.copy = MemorySegment.ofArray(new long[2 + elements]);
    }

    static long bytes(int elements) {
        return 16 + 8L * elements;
    }

    boolean enqueue(long v) {
        lock.lock();
        try {
            thread.read(block, copy);
            long head = copy.getAtIndex(ValueLayout.JAVA_LONG, 0);
            long size = copy.getAtIndex(ValueLayout.JAVA_LONG, 1);
            if (size == elements) {
                return false;
            }
            copy.setAtIndex(ValueLayout.JAVA_LONG, 2 + (head + size) % elements, v);
            copy.setAtIndex(ValueLayout.JAVA_LONG, 1, size + 1);
            thread.write(block, copy);
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean dequeue() {
        lock.lock();
        try {
            thread.read(block, copy);
            long head = copy.getAtIndex(ValueLayout.JAVA_LONG, 0);
            long size = copy.getAtIndex(ValueLayout.JAVA_LONG, 1);
            if (size == 0) {
                return false;
            }
            value = copy.getAtIndex(ValueLayout.JAVA_LONG, 2 + head);
            copy.setAtIndex(ValueLayout.JAVA_LONG, 0, (head + 1) % elements);
            copy.setAtIndex(ValueLayout.JAVA_LONG, 1, size - 1);
            thread.write(block, copy);
            return true;
        } finally {
            lock.unlock();
        }
    }

    long value() {
        return value;
    }
}
