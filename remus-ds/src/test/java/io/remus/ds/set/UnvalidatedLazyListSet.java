package io.remus.ds.set;

import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.ds.testing.Contention;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A deliberately broken twin of {@link LazyListSet}, for showing that the linearizability check can fail:
 * insert and remove lock the predecessor and the node their walk found but do not validate them (the
 * predecessor may have been removed, or may point elsewhere by then), and store the predecessor's
 * {@code next} whatever it holds. An insert after a node being removed is lost, and of two adjacent removes
 * one may leave its node in the list. {@link #contains} is the real one. Nothing is retired (the twin runs
 * with a reclaimer that never frees).
 */
final class UnvalidatedLazyListSet implements RemoteSet {
    private static final long BUF = 64;
    private static final long BUF_NEW = 256;

    private final LockContext context;
    private final ComputeThread thread;
    private final LazyListSet real;
    private final LockKind kind;
    private final long head;
    private final long tail;
    private final long tailBlock;
    private long pred;
    private long predBlock;
    private long curr;
    private long currBlock;
    private long currKey;

    UnvalidatedLazyListSet(LockContext context, Reclaimer reclaimer, long ptr) {
        this.context = context;
        this.thread = context.thread();
        this.real = LazyListSet.attach(context, reclaimer, ptr);
        this.kind = real.lockKind();
        this.head = thread.read(RemotePtr.offset(ptr, ListLayout.HEAD));
        this.tail = thread.read(RemotePtr.offset(ptr, ListLayout.TAIL));
        this.tailBlock = thread.read(RemotePtr.offset(ptr, ListLayout.TAIL_BLOCK));
    }

    private void walk(long key) {
        MemorySegment buf = thread.buffer();
        thread.read(head, BUF, ListLayout.DATA_BYTES);
        pred = head;
        predBlock = buf.get(ValueLayout.JAVA_LONG, BUF + ListLayout.BLOCK);
        curr = ListLayout.unmarked(buf.get(ValueLayout.JAVA_LONG, BUF + ListLayout.NEXT));
        while (curr != tail) {
            thread.read(curr, BUF, ListLayout.DATA_BYTES);
            currKey = buf.get(ValueLayout.JAVA_LONG, BUF + ListLayout.KEY);
            currBlock = buf.get(ValueLayout.JAVA_LONG, BUF + ListLayout.BLOCK);
            if (currKey >= key) {
                return;
            }
            pred = curr;
            predBlock = currBlock;
            curr = ListLayout.unmarked(buf.get(ValueLayout.JAVA_LONG, BUF + ListLayout.NEXT));
        }
        currKey = Long.MAX_VALUE;
        currBlock = tailBlock;
    }

    /** Sets the word whatever it holds (by compare-and-swap from what a READ found, until that holds). */
    private void store(long word, long value) {
        long was = thread.read(word);
        while (true) {
            long found = thread.compareAndSwap(word, was, value);
            if (found == was) {
                return;
            }
            was = found;
        }
    }

    @Override
    public boolean insert(long key) {
        walk(key);
        Contention.maybeYield();
        Lock p = kind.open(context, LazyListSet.lockWordOf(predBlock));
        p.lock();
        try {
            Lock c = kind.open(context, LazyListSet.lockWordOf(currBlock));
            c.lock();
            try {
                if (currKey == key) {
                    return false;
                }
                long block = thread.allocator().allocate(LazyListSet.NODE_BYTES, RemotePtr.node(head));
                long node = LazyListSet.dataOf(block);
                MemorySegment buf = thread.buffer();
                buf.asSlice(BUF_NEW, LazyListSet.NODE_BYTES).fill((byte) 0);
                ListLayout.putData(buf, BUF_NEW + (RemotePtr.address(node) - RemotePtr.address(block)), node, key, curr, block);
                thread.write(block, BUF_NEW, LazyListSet.NODE_BYTES);
                store(RemotePtr.offset(pred, ListLayout.NEXT), node);
                return true;
            } finally {
                c.unlock();
            }
        } finally {
            p.unlock();
        }
    }

    @Override
    public boolean remove(long key) {
        walk(key);
        Contention.maybeYield();
        Lock p = kind.open(context, LazyListSet.lockWordOf(predBlock));
        p.lock();
        try {
            Lock c = kind.open(context, LazyListSet.lockWordOf(currBlock));
            c.lock();
            try {
                if (currKey != key) {
                    return false;
                }
                long nextWord = RemotePtr.offset(curr, ListLayout.NEXT);
                long succ = ListLayout.unmarked(thread.read(nextWord));
                thread.compareAndSwap(nextWord, succ, succ | ListLayout.MARK);
                store(RemotePtr.offset(pred, ListLayout.NEXT), succ);
                return true;
            } finally {
                c.unlock();
            }
        } finally {
            p.unlock();
        }
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
