package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.ds.testing.Contention;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A deliberately broken twin of {@link LockFreeSkipListSet}, for showing that the tests can fail, with one of
 * two flaws ({@link Flaw}); the other operations are the real ones. Both flawed operations walk level 0 only
 * (a correct, if slow, search of a skip list).
 */
final class BrokenSkipListSet implements RemoteSet {
    /** What the twin gets wrong. */
    enum Flaw {
        /**
         * Insert links a node of height 1 at level 0 with a plain WRITE of its predecessor's {@code next[0]},
         * not a compare-and-swap: a node linked after that predecessor meanwhile is lost, and a predecessor
         * marked meanwhile comes back. Caught by the linearizability checker.
         */
        WRITE_LINK,
        /**
         * Remove marks the node at every level and retires it at once, without the {@code find} that unlinks it
         * (Fraser's rule broken): the node is freed while still linked. Caught by the torn-pointer check
         * ({@link io.remus.core.error.CorruptedMemoryException}) once poison fills the freed block.
         */
        RETIRE_LINKED
    }

    private static final long BUF = 64;
    private static final long BUF_NEW = 512;

    private final ComputeThread thread;
    private final Reclaimer reclaimer;
    private final LockFreeSkipListSet real;
    private final Flaw flaw;
    private final long head;
    private final long tail;
    private final int nodeBytes;
    private long pred;
    private long curr;
    private long currKey;
    private long currNext0;
    private int currHeight;

    BrokenSkipListSet(ComputeThread thread, Reclaimer reclaimer, long ptr, Flaw flaw) {
        this.thread = thread;
        this.reclaimer = reclaimer;
        this.real = LockFreeSkipListSet.attach(thread, reclaimer, ptr);
        this.flaw = flaw;
        this.head = thread.read(RemotePtr.offset(ptr, ListLayout.HEAD));
        this.tail = thread.read(RemotePtr.offset(ptr, ListLayout.TAIL));
        this.nodeBytes = LockFreeSkipListSet.nodeBytes(real.maxLevel());
    }

    /** Walks level 0 to the first unmarked node with a key {@code >= key}, passing over marked ones. */
    private void walk(long key) {
        MemorySegment buf = thread.buffer();
        pred = head;
        curr = ListLayout.unmarked(thread.read(RemotePtr.offset(head, LockFreeSkipListSet.NEXT)));
        while (curr != tail) {
            thread.read(curr, BUF, nodeBytes);
            currKey = buf.get(ValueLayout.JAVA_LONG, BUF + LockFreeSkipListSet.KEY);
            currHeight = (int) buf.get(ValueLayout.JAVA_LONG, BUF + LockFreeSkipListSet.HEIGHT);
            currNext0 = buf.get(ValueLayout.JAVA_LONG, BUF + LockFreeSkipListSet.NEXT);
            if (!ListLayout.marked(currNext0)) {
                if (currKey >= key) {
                    return;
                }
                pred = curr;
            }
            curr = ListLayout.unmarked(currNext0);
        }
    }

    @Override
    public boolean insert(long key) {
        if (flaw != Flaw.WRITE_LINK) {
            return real.insert(key);
        }
        MemorySegment buf = thread.buffer();
        walk(key);
        if (curr != tail && currKey == key) {
            return false;
        }
        long node = thread.allocator().allocate(nodeBytes, RemotePtr.node(head));
        buf.fill((byte) 0);
        buf.set(ValueLayout.JAVA_LONG, BUF_NEW + LockFreeSkipListSet.SELF, node);
        buf.set(ValueLayout.JAVA_LONG, BUF_NEW + LockFreeSkipListSet.KEY, key);
        buf.set(ValueLayout.JAVA_LONG, BUF_NEW + LockFreeSkipListSet.HEIGHT, 1);
        buf.set(ValueLayout.JAVA_LONG, BUF_NEW + LockFreeSkipListSet.BLOCK, node);
        buf.set(ValueLayout.JAVA_LONG, BUF_NEW + LockFreeSkipListSet.NEXT, curr);
        thread.write(node, BUF_NEW, nodeBytes);
        Contention.maybeYield();
        buf.set(ValueLayout.JAVA_LONG, BUF, node);
        thread.write(RemotePtr.offset(pred, LockFreeSkipListSet.NEXT), BUF, 8);
        return true;
    }

    @Override
    public boolean remove(long key) {
        if (flaw != Flaw.RETIRE_LINKED) {
            return real.remove(key);
        }
        try (Guard g = reclaimer.enter()) {
            walk(key);
            if (curr == tail || currKey != key) {
                return false;
            }
            long node = curr;
            for (int level = currHeight - 1; level >= 0; level--) {
                long word = RemotePtr.offset(node, LockFreeSkipListSet.NEXT + 8L * level);
                long w = thread.read(word);
                while (!ListLayout.marked(w)) {
                    long was = thread.compareAndSwap(word, w, w | ListLayout.MARK);
                    if (was == w) {
                        if (level == 0) {
                            reclaimer.retire(node, nodeBytes);
                            return true;
                        }
                        break;
                    }
                    w = was;
                }
            }
            return false;
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
