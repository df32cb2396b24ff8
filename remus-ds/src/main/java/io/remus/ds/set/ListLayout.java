package io.remus.ds.set;

import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The memory layout the list-based sets share: a root block (also {@link LockFreeSkipListSet}'s), and
 * nodes whose data is four words read whole with one RDMA READ.
 *
 * <pre>
 *  root (ROOT_BYTES, on the set's home node; written once before its pointer is known):
 *  +0   tag        which set this is ({@link #LAZY_TAG}, {@link #LOCK_FREE_TAG} or {@link #SKIP_TAG})
 *  +8   head       the head sentinel's node pointer (key Long.MIN_VALUE, never removed)
 *  +16  tail       the tail sentinel's node pointer (key Long.MAX_VALUE, never removed)
 *  +24  tailBlock  the block the tail sentinel lies in
 *  +32  lockKind   LazyListSet: the ordinal of its nodes' LockKind; LockFreeSkipListSet: its maxLevel;
 *                  0 otherwise
 *
 *  node data (DATA_BYTES; a node pointer points here; 8-byte aligned, so bit 0 of a pointer is free):
 *  +0   self       the node pointer itself: a node read through a torn pointer shows another value
 *  +8   key        written once, before the node is linked
 *  +16  next       the successor's node pointer | MARK when the node is logically removed;
 *                  changed only by RDMA compare-and-swap once the node is linked
 *  +24  block      the allocation the node lies in (for the reclaimer, and the lazy list's lock word)
 * </pre>
 */
final class ListLayout {
    static final long TAG = 0;
    static final long HEAD = 8;
    static final long TAIL = 16;
    static final long TAIL_BLOCK = 24;
    static final long LOCK_KIND = 32;
    static final int ROOT_BYTES = 40;

    static final long SELF = 0;
    static final long KEY = 8;
    static final long NEXT = 16;
    static final long BLOCK = 24;
    static final int DATA_BYTES = 32;

    static final long MARK = 1;
    /** The root tag of a {@link LazyListSet} ("LazyList" in ASCII). */
    static final long LAZY_TAG = 0x4C617A794C697374L;
    /** The root tag of a {@link LockFreeListSet} ("HarrisML" in ASCII). */
    static final long LOCK_FREE_TAG = 0x4861727269734D4CL;
    /** The root tag of a {@link LockFreeSkipListSet} ("SkipList" in ASCII). */
    static final long SKIP_TAG = 0x536B69704C697374L;
    /** Self words in a row that were not the pointer they were read by before the list counts as corrupted. */
    static final int MAX_TORN = 3;

    private ListLayout() {
    }

    static boolean marked(long next) {
        return (next & MARK) != 0;
    }

    static long unmarked(long next) {
        return next & ~MARK;
    }

    static long checkKey(long key) {
        if (key == Long.MIN_VALUE || key == Long.MAX_VALUE) {
            throw new SetKeyException(key);
        }
        return key;
    }

    static void requireRoot(long ptr) {
        if (RemotePtr.isNull(ptr) || (RemotePtr.address(ptr) & 7) != 0) {
            throw new BadArgumentException("a set's root must be non-null and 8-byte aligned, got " + RemotePtr.toString(ptr));
        }
    }

    /** Checks that the thread's buffer holds {@code bytes} of scratch. */
    static void requireBuffer(ComputeThread thread, long bytes) {
        if (thread.config().bufferSizePerThread() < bytes) {
            throw new BadArgumentException("a list-based set needs " + bytes + " bytes of the thread's buffer, it has "
                    + thread.config().bufferSizePerThread());
        }
    }

    /** Puts a node's four data words into the buffer at {@code at}. */
    static void putData(MemorySegment buf, long at, long node, long key, long next, long block) {
        buf.set(ValueLayout.JAVA_LONG, at + SELF, node);
        buf.set(ValueLayout.JAVA_LONG, at + KEY, key);
        buf.set(ValueLayout.JAVA_LONG, at + NEXT, next);
        buf.set(ValueLayout.JAVA_LONG, at + BLOCK, block);
    }

    /**
     * Reads a root and checks its tag.
     *
     * @return the root's words (tag, head, tail, tailBlock, lockKind)
     */
    static long[] readRoot(ComputeThread thread, long ptr, long tag, String kind) {
        requireRoot(ptr);
        thread.read(ptr, 0, ROOT_BYTES);
        MemorySegment buf = thread.buffer();
        long[] words = new long[ROOT_BYTES / 8];
        for (int i = 0; i < words.length; i++) {
            words[i] = buf.get(ValueLayout.JAVA_LONG, 8L * i);
        }
        if (words[0] != tag) {
            throw new BadArgumentException(RemotePtr.toString(ptr) + " is not the root of a " + kind + " (its tag is 0x"
                    + Long.toHexString(words[0]) + ")");
        }
        return words;
    }

    /** Writes a root from the buffer's first {@link #ROOT_BYTES} bytes. */
    static void writeRoot(ComputeThread thread, long root, long tag, long head, long tail, long tailBlock, long lockKind) {
        MemorySegment buf = thread.buffer();
        buf.set(ValueLayout.JAVA_LONG, TAG, tag);
        buf.set(ValueLayout.JAVA_LONG, HEAD, head);
        buf.set(ValueLayout.JAVA_LONG, TAIL, tail);
        buf.set(ValueLayout.JAVA_LONG, TAIL_BLOCK, tailBlock);
        buf.set(ValueLayout.JAVA_LONG, LOCK_KIND, lockKind);
        thread.write(root, 0, ROOT_BYTES);
    }
}
