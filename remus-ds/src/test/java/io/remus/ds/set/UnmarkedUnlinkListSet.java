package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.ds.testing.Contention;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A deliberately broken twin of {@link LockFreeListSet}, for showing that the linearizability check can
 * fail: remove unlinks the node with one compare-and-swap of its predecessor's {@code next} without marking
 * it first (Harris' list without the mark), so an insert that links a node after it meanwhile is lost, and
 * of two adjacent removes one may leave its node in the list. Insert and contains are the real ones. Nothing
 * is retired (the twin runs with a reclaimer that never frees).
 */
final class UnmarkedUnlinkListSet implements RemoteSet {
    private static final long BUF = 64;

    private final ComputeThread thread;
    private final LockFreeListSet real;
    private final long head;
    private final long tail;

    UnmarkedUnlinkListSet(ComputeThread thread, Reclaimer reclaimer, long ptr) {
        this.thread = thread;
        this.real = LockFreeListSet.attach(thread, reclaimer, ptr);
        this.head = thread.read(RemotePtr.offset(ptr, ListLayout.HEAD));
        this.tail = thread.read(RemotePtr.offset(ptr, ListLayout.TAIL));
    }

    @Override
    public boolean remove(long key) {
        MemorySegment buf = thread.buffer();
        while (true) {
            long pred = head;
            long curr = ListLayout.unmarked(thread.read(RemotePtr.offset(head, ListLayout.NEXT)));
            long next = RemotePtr.NULL;
            long k = Long.MAX_VALUE;
            while (curr != tail) {
                thread.read(curr, BUF, ListLayout.DATA_BYTES);
                k = buf.get(ValueLayout.JAVA_LONG, BUF + ListLayout.KEY);
                next = ListLayout.unmarked(buf.get(ValueLayout.JAVA_LONG, BUF + ListLayout.NEXT));
                if (k >= key) {
                    break;
                }
                pred = curr;
                curr = next;
            }
            if (curr == tail || k != key) {
                return false;
            }
            Contention.maybeYield();
            if (thread.compareAndSwap(RemotePtr.offset(pred, ListLayout.NEXT), curr, next) == curr) {
                return true;
            }
        }
    }

    @Override
    public boolean insert(long key) {
        return real.insert(key);
    }

    @Override
    public boolean contains(long key) {
        return real.contains(key);
    }

    @Override
    public long ptr() {
        return real.ptr();
    }

    @Override
    public void close() {
        real.close();
    }
}
