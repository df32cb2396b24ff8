package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The memory layout the list-based sets share: a root block (also {@link LockFreeSkipListSet}'s), and
 * nodes whose data is four words read whole with one RDMA READ.
 *
 * <pre>
 *  root block (on the set's home node; written once before its pointer is known):
 *  -24  the allocator's block header
 *  -16  the handles word ({@link StructureIdentity}): the block's life, destroyed or not, open handles
 *  -8   the identity word ({@link StructureIdentity}): which set this is, its layout version, the block's life
 *  root (ROOT_BYTES; the set's pointer points here):
 *  +0   head       the head sentinel's node pointer (key Long.MIN_VALUE, never removed)
 *  +8   tail       the tail sentinel's node pointer (key Long.MAX_VALUE, never removed)
 *  +16  tailBlock  the block the tail sentinel lies in
 *  +24  lockKind   LazyListSet: the ordinal of its nodes' LockKind; LockFreeSkipListSet: its maxLevel;
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
    static final long HEAD = 0;
    static final long TAIL = 8;
    static final long TAIL_BLOCK = 16;
    static final long LOCK_KIND = 24;
    static final int ROOT_BYTES = 32;

    static final long SELF = 0;
    static final long KEY = 8;
    static final long NEXT = 16;
    static final long BLOCK = 24;
    static final int DATA_BYTES = 32;

    static final long MARK = 1;
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
     * Allocates a root block of {@link #ROOT_BYTES} with the identity of a set of {@code kind} in front
     * ({@link StructureIdentity#allocate}: a CPU load and store on the thread's own node, else 1 READ and 1 WRITE,
     * besides the allocation).
     *
     * @return the creator's identity; its {@link StructureIdentity#ptr()} is the root
     */
    static StructureIdentity allocateRoot(ComputeThread thread, StructureKind kind, int nodeId) {
        return StructureIdentity.allocate(thread, kind, ROOT_BYTES, nodeId, ClosedSetException::new);
    }

    /**
     * Checks that {@code ptr} is the root of a live set of {@code kind}, reads its words and opens a handle: one
     * READ of the handles word, the handles and identity words and the root, and one compare-and-swap of the
     * handles word ({@link StructureIdentity#attach}).
     *
     * @param words     receives the root's words, {@link #ROOT_BYTES}{@code / 8} of them; {@link #word} reads one
     * @param checkRoot checks the words before the handle is opened; throws to refuse the set
     * @return the caller's identity of the set
     * @throws io.remus.ds.identity.WrongStructureException when no live set of {@code kind} is there
     * @throws ClosedSetException                           when the set there was destroyed
     * @throws BadArgumentException                         when the pointer is null or misaligned
     */
    static StructureIdentity attachRoot(ComputeThread thread, StructureKind kind, long ptr, long[] words,
                                        Runnable checkRoot) {
        return StructureIdentity.attach(thread, kind, ptr, MemorySegment.ofArray(words), ClosedSetException::new,
                copy -> checkRoot.run());
    }

    /** {@return the root word at {@code offset} among {@code words} as {@link #attachRoot} read them} */
    static long word(long[] words, long offset) {
        return words[(int) (offset / 8)];
    }

    /** Writes a root from the buffer's first {@link #ROOT_BYTES} bytes. */
    static void writeRoot(ComputeThread thread, long root, long head, long tail, long tailBlock, long lockKind) {
        MemorySegment buf = thread.buffer();
        buf.set(ValueLayout.JAVA_LONG, HEAD, head);
        buf.set(ValueLayout.JAVA_LONG, TAIL, tail);
        buf.set(ValueLayout.JAVA_LONG, TAIL_BLOCK, tailBlock);
        buf.set(ValueLayout.JAVA_LONG, LOCK_KIND, lockKind);
        thread.write(root, 0, ROOT_BYTES);
    }
}
