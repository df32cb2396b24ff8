package io.remus.ds.object;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;

/**
 * The bounded FIFO queue of {@link WaitFreeQueue} ({@link WaitFreeQueue#sequential}) as a
 * {@link LockedObject} under ALock: the comparison object of {@link LockedQueueComparisonTest}, with
 * the queue's words for its calls.
 */
final class LockedQueue {
    private final LockedObject<long[]> object;
    private long value;

    private LockedQueue(LockedObject<long[]> object) {
        this.object = object;
    }

    /** @return the root (lock word) of a new empty queue on {@code node} */
    static long create(ComputeThread thread, int node, int elements) {
        return LockedObject.create(new LockContext(thread, LockOptions.defaults()), LockKind.ALOCK, node,
                WaitFreeQueue.sequential(elements)).ptr();
    }

    static LockedQueue attach(LockContext context, long ptr, int elements) {
        return new LockedQueue(LockedObject.attach(context, LockKind.ALOCK, ptr, WaitFreeQueue.sequential(elements)));
    }

    boolean enqueue(long v) {
        object.apply(WaitFreeQueue.ENQUEUE, v);
        return object.status() == WaitFreeQueue.OK;
    }

    boolean dequeue() {
        long v = object.apply(WaitFreeQueue.DEQUEUE, 0);
        if (object.status() != WaitFreeQueue.OK) {
            return false;
        }
        value = v;
        return true;
    }

    long value() {
        return value;
    }
}
