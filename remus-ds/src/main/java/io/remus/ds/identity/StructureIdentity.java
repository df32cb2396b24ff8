package io.remus.ds.identity;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.DoubleFreeException;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.function.Function;

/**
 * The identity of one structure's root and one handle's share in it: which kind of structure it is, which life of
 * its root block, and whether this handle is still open. Every structure of remus-ds puts two words in front of
 * its root, in the root's own allocator block:
 *
 * <pre>
 *  ptr - 24  the allocator's header of the root block ({@link BlockHeader}: state, size class, incarnation)
 *  ptr - 16  the handles word:
 *            63                      32 31          30                     0
 *           +-------------------------+-----------+------------------------+
 *           | incarnation at creation | destroyed | open handles           |
 *           +-------------------------+-----------+------------------------+
 *  ptr - 8   the identity word:
 *            63        48 47      40 39       32 31                      0
 *           +------------+----------+-----------+-------------------------+
 *           | magic "RM" | kind tag | version   | incarnation at creation |
 *           +------------+----------+-----------+-------------------------+
 *  ptr       the structure's root, as its class documents it; {@code ptr} is what {@code ptr()} returns
 * </pre>
 *
 * <p><b>Handles keep a structure's memory.</b> {@link #allocate} opens the first handle; {@link #attach} opens one
 * more; {@link #close} and {@link #destroy} drop one. {@link #destroy} also marks the structure destroyed, and
 * whoever drops the last handle of a destroyed structure frees all of its memory. So no block of a structure is
 * freed while any handle on it is open, in any process: a call of an open handle never reads freed memory as
 * data and never writes into a block that another owner reuses, whatever it races with, and a call that starts
 * after a destroy returned learns of it from the handles word it reads in its first doorbell ({@link #check}).
 * The cost is the handles: a handle that is never closed (its process died, or it was dropped without
 * {@code close()}) keeps a destroyed structure's memory allocated, as a leaked {@code shared_ptr} would.
 *
 * <p><b>Attach</b> reads the block header, the handles word, the identity word and the root's first bytes in one
 * RDMA READ, and accepts the pointer only when the block is allocated, the identity word is a structure's of the
 * expected kind and layout version, and its incarnation is the block's: a pointer to another kind of structure or
 * to no structure is a {@link WrongStructureException} naming what is there; a destroyed structure (marked in its
 * handles word, or its block free or reused since: the block's incarnation moved past the identity word's) is the
 * structure's own closed exception. It then counts itself in by a compare-and-swap of the handles word, which
 * expects the word it read, incarnation included, so that it never counts into a block that was freed meanwhile.
 *
 * <p>One identity per handle, used by the handle's thread.
 */
public final class StructureIdentity {
    /** Bytes of the handles word and the identity word in front of a root. */
    public static final int BYTES = 16;
    /**
     * Bytes before a root that a call's READ of its root starts at: the handles word, then the identity word
     * ({@link #headerAddress()}).
     */
    public static final int PREFIX_BYTES = BYTES;
    private static final long MAGIC = 0x524DL;
    private static final long DESTROYED = 1L << 31;
    private static final long COUNT_MASK = DESTROYED - 1;

    private final StructureKind kind;
    private final long ptr;
    private final long blockHeader;
    private final Function<String, ? extends RuntimeException> destroyed;
    private boolean closed;

    private StructureIdentity(StructureKind kind, long ptr, long blockHeader,
                              Function<String, ? extends RuntimeException> destroyed) {
        this.kind = kind;
        this.ptr = ptr;
        this.blockHeader = blockHeader;
        this.destroyed = destroyed;
    }

    /**
     * Allocates a structure's root block with its handles word and identity word in front, and opens the
     * creator's handle: {@code rootBytes + }{@value #BYTES} bytes on node {@code nodeId} with {@code thread}'s
     * allocator, then the block header read and the two words stored (CPU loads and stores on the thread's own
     * node, else 1 READ and 1 WRITE), before anyone else can know the pointer.
     *
     * @param thread    the creator's compute thread
     * @param kind      the structure's kind
     * @param rootBytes bytes of the root after the two words, positive
     * @param nodeId    the memory node to place it on
     * @param destroyed makes the structure's closed exception from a message, for {@link #check} and {@link #destroy}
     * @return the creator's identity; {@link #ptr()} is the root
     */
    public static StructureIdentity allocate(ComputeThread thread, StructureKind kind, long rootBytes, int nodeId,
                                             Function<String, ? extends RuntimeException> destroyed) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(destroyed, "destroyed");
        if (rootBytes <= 0) {
            throw new BadArgumentException("rootBytes must be positive, got " + rootBytes);
        }
        long block = thread.allocator().allocate(rootBytes + BYTES, nodeId);
        long header = thread.read(BlockHeader.address(block));
        int incarnation = BlockHeader.incarnation(header);
        thread.write(block, MemorySegment.ofArray(new long[] {handles(incarnation, 1), word(kind, incarnation)}));
        return new StructureIdentity(kind, RemotePtr.offset(block, BYTES), header, destroyed);
    }

    /**
     * Checks that {@code ptr} is the root of a live structure of {@code kind}, copies the root's first
     * {@code root.byteSize()} bytes into {@code root} and opens a handle: one READ of
     * {@code 24 + root.byteSize()} bytes from {@code ptr - 24}, then one compare-and-swap of the handles word
     * (2 round trips; one more READ and compare-and-swap for each other handle opened or closed in between).
     *
     * @param thread    the caller's compute thread
     * @param kind      the kind the caller expects
     * @param ptr       the root, as the creator's {@link #ptr()}
     * @param root      receives the root's first bytes; empty when the caller needs none
     * @param destroyed makes the structure's closed exception from a message
     * @return the caller's identity of the structure
     * @throws BadArgumentException     when the pointer is null, not 8-byte aligned or not in a memory node's segment
     * @throws WrongStructureException  when no live structure of {@code kind} in its layout version is there
     * @throws RuntimeException         {@code destroyed}'s exception, when the structure there was destroyed
     */
    public static StructureIdentity attach(ComputeThread thread, StructureKind kind, long ptr, MemorySegment root,
                                           Function<String, ? extends RuntimeException> destroyed) {
        return attach(thread, kind, ptr, root, destroyed, copy -> { });
    }

    /**
     * As {@link #attach(ComputeThread, StructureKind, long, MemorySegment, Function)}, with the caller's check of
     * the root's first bytes after the identity's and before the handle is counted in: a {@code checkRoot} that
     * throws leaves the handles word as it was.
     *
     * @param thread    the caller's compute thread
     * @param kind      the kind the caller expects
     * @param ptr       the root, as the creator's {@link #ptr()}
     * @param root      receives the root's first bytes; empty when the caller needs none
     * @param destroyed makes the structure's closed exception from a message
     * @param checkRoot checks {@code root} once it holds the bytes; throws to refuse the structure
     * @return the caller's identity of the structure
     * @throws BadArgumentException     when the pointer is null, not 8-byte aligned or not in a memory node's segment
     * @throws WrongStructureException  when no live structure of {@code kind} in its layout version is there
     * @throws RuntimeException         {@code destroyed}'s exception, when the structure there was destroyed, or
     *                                  what {@code checkRoot} throws
     */
    public static StructureIdentity attach(ComputeThread thread, StructureKind kind, long ptr, MemorySegment root,
                                           Function<String, ? extends RuntimeException> destroyed,
                                           java.util.function.Consumer<MemorySegment> checkRoot) {
        long[] handles = new long[1];
        StructureIdentity id = identify(thread, kind, ptr, root, destroyed, checkRoot, handles);
        long handlesAt = id.headerAddress();
        long seen = handles[0];
        while (true) {
            if ((seen & COUNT_MASK) == COUNT_MASK) {
                throw new BadArgumentException("the " + id + " has " + COUNT_MASK + " open handles, as many as its"
                        + " handles word counts");
            }
            long was = thread.compareAndSwap(handlesAt, seen, seen + 1);
            if (was == seen) {
                return id;
            }
            seen = was;
            id.check(seen);
        }
    }

    /**
     * Checks, as {@link #attach(ComputeThread, StructureKind, long, MemorySegment, Function)} does, that
     * {@code ptr} is the root of a live structure of {@code kind}, and copies the root's first
     * {@code root.byteSize()} bytes into {@code root}, without opening a handle: one READ of
     * {@code 24 + root.byteSize()} bytes from {@code ptr - 24} (1 round trip). For a caller that only looks
     * (the bytes may be stale as soon as they are read).
     *
     * @param thread    the caller's compute thread
     * @param kind      the kind the caller expects
     * @param ptr       the root, as the creator's {@link #ptr()}
     * @param root      receives the root's first bytes
     * @param destroyed makes the structure's closed exception from a message
     * @throws BadArgumentException     when the pointer is null, not 8-byte aligned or not in a memory node's segment
     * @throws WrongStructureException  when no live structure of {@code kind} in its layout version is there
     * @throws RuntimeException         {@code destroyed}'s exception, when the structure there was destroyed
     */
    public static void inspect(ComputeThread thread, StructureKind kind, long ptr, MemorySegment root,
                               Function<String, ? extends RuntimeException> destroyed) {
        identify(thread, kind, ptr, root, destroyed, copy -> { }, new long[1]);
    }

    private static StructureIdentity identify(ComputeThread thread, StructureKind kind, long ptr, MemorySegment root,
                                              Function<String, ? extends RuntimeException> destroyed,
                                              java.util.function.Consumer<MemorySegment> checkRoot, long[] handlesOut) {
        Objects.requireNonNull(checkRoot, "checkRoot");
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(destroyed, "destroyed");
        int headerBytes = BlockHeader.SIZE + BYTES;
        if (RemotePtr.isNull(ptr) || (RemotePtr.address(ptr) & 7) != 0 || RemotePtr.address(ptr) < headerBytes) {
            throw new BadArgumentException("a " + kind.typeName() + "'s root must be non-null and 8-byte aligned, got "
                    + RemotePtr.toString(ptr));
        }
        MemorySegment words = MemorySegment.ofArray(new long[(int) ((headerBytes + root.byteSize() + 7) / 8)]);
        thread.read(RemotePtr.offset(ptr, -headerBytes), words.asSlice(0, headerBytes + root.byteSize()));
        long header = words.get(ValueLayout.JAVA_LONG, 0);
        long handles = words.get(ValueLayout.JAVA_LONG, BlockHeader.SIZE);
        long identity = words.get(ValueLayout.JAVA_LONG, BlockHeader.SIZE + 8);
        long block = RemotePtr.offset(ptr, -BYTES);
        if (!BlockHeader.isHeaderOf(block, header)) {
            throw new WrongStructureException(ptr, kind, null, "no allocated block starts " + BYTES + " bytes before it"
                    + " (the word there is 0x" + Long.toHexString(header) + ")");
        }
        StructureKind found = (identity >>> 48) == MAGIC ? StructureKind.ofTag((int) (identity >>> 40) & 0xFF) : null;
        if (found == null) {
            if (BlockHeader.state(header) == BlockHeader.FREE) {
                throw destroyed.apply("the " + kind.typeName() + " at " + RemotePtr.toString(ptr)
                        + " was destroyed: its root block is free (" + BlockHeader.describe(header) + ")");
            }
            throw new WrongStructureException(ptr, kind, null, "no structure's identity word is in front of it (0x"
                    + Long.toHexString(identity) + ")");
        }
        int incarnation = (int) identity;
        if (BlockHeader.state(header) == BlockHeader.FREE || BlockHeader.incarnation(header) != incarnation) {
            if (found != kind) {
                throw new WrongStructureException(ptr, kind, found, "it was a " + found.typeName() + ", since destroyed");
            }
            String now = BlockHeader.state(header) == BlockHeader.FREE ? "is free" : "was reused";
            throw destroyed.apply("the " + kind.typeName() + " at " + RemotePtr.toString(ptr) + " was destroyed: its"
                    + " root block " + now + " (" + BlockHeader.describe(header) + "; its identity word names incarnation "
                    + Integer.toUnsignedString(incarnation) + ")");
        }
        if (found != kind) {
            throw new WrongStructureException(ptr, kind, found, "it is a " + found.typeName());
        }
        int version = (int) (identity >>> 32) & 0x7F;
        if (version != kind.version()) {
            throw new WrongStructureException(ptr, kind, kind, "its layout is version " + version + ", this code reads"
                    + " version " + kind.version());
        }
        StructureIdentity id = new StructureIdentity(kind, ptr, header, destroyed);
        id.check(handles);
        MemorySegment.copy(words, headerBytes, root, 0, root.byteSize());
        checkRoot.accept(root);
        handlesOut[0] = handles;
        return id;
    }

    /** {@return the identity word of a structure of {@code kind} whose root block is in incarnation {@code incarnation}} */
    static long word(StructureKind kind, int incarnation) {
        return (MAGIC << 48) | ((long) kind.tag() << 40) | ((long) kind.version() << 32) | Integer.toUnsignedLong(incarnation);
    }

    /** {@return the handles word of a live structure of root block incarnation {@code incarnation} with {@code open} handles} */
    static long handles(int incarnation, long open) {
        return ((long) incarnation << 32) | open;
    }

    /**
     * {@return the allocation size of a root of {@code rootBytes}: the size an allocator's statistics and size
     * classes see}
     *
     * @param rootBytes bytes of the root after the handles word and the identity word
     */
    public static long blockBytes(long rootBytes) {
        return rootBytes + BYTES;
    }

    /** {@return the structure's kind} */
    public StructureKind kind() {
        return kind;
    }

    /** {@return the root: the structure's pointer, as its {@code ptr()} returns it} */
    public long ptr() {
        return ptr;
    }

    /**
     * {@return the address of the handles word: a READ from here covers it, the identity word and the root, and
     * its first word is what {@link #check} takes}
     */
    public long headerAddress() {
        return RemotePtr.offset(ptr, -PREFIX_BYTES);
    }

    /** {@return the root block's allocator header word in the life this handle knows} */
    public long blockHeader() {
        return blockHeader;
    }

    /** {@return whether this handle was closed or destroyed the structure} */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Checks that this handle is open: no RDMA operation. A handle is closed by {@link #close} and by
     * {@link #destroy}, refused or not; this identity is the one record of it.
     *
     * @throws RuntimeException the structure's closed exception, when this handle was closed or destroyed the
     *                          structure
     */
    public void requireOpen() {
        if (closed) {
            throw destroyed.apply("this handle on the " + this + " is closed");
        }
    }

    /**
     * Checks a handles word read from {@link #headerAddress()} (in the same doorbell as data of the root): no RDMA
     * operation. The structure's memory is the structure's while this handle is open, so the data read with the
     * word was not another owner's; when the word says destroyed, the caller discards it.
     *
     * @param handles the word read
     * @throws RuntimeException the structure's closed exception, when the structure was destroyed
     */
    public void check(long handles) {
        if (!isLive(handles)) {
            throw destroyed.apply("the " + kind.typeName() + " at " + RemotePtr.toString(ptr) + " was destroyed"
                    + ((handles >>> 32) == Integer.toUnsignedLong(BlockHeader.incarnation(blockHeader))
                    ? " (" + (handles & COUNT_MASK) + " handles still open keep its memory)"
                    : ": its handles word is 0x" + Long.toHexString(handles)));
        }
    }

    /**
     * {@return whether a handles word read from {@link #headerAddress()} says the structure is live} No RDMA
     * operation; {@link #check} throws where this says false.
     *
     * @param handles the word read
     */
    public boolean isLive(long handles) {
        return (handles >>> 32) == Integer.toUnsignedLong(BlockHeader.incarnation(blockHeader)) && (handles & DESTROYED) == 0;
    }

    /**
     * Reads the root's word at {@code offset}: one READ from the handles word through that word into
     * {@code scratch} (1 round trip), checked ({@link #check}) before the word is returned.
     *
     * @param thread  the handle's compute thread
     * @param offset  the word's offset in the root, 8-byte aligned
     * @param scratch receives the READ: {@value #PREFIX_BYTES}{@code  + offset + 8} bytes at least
     * @return the word
     * @throws RuntimeException the structure's closed exception, when it was destroyed
     */
    public long readRootWord(ComputeThread thread, long offset, MemorySegment scratch) {
        int length = (int) (PREFIX_BYTES + offset + 8);
        thread.read(headerAddress(), scratch.asSlice(0, length));
        check(scratch.get(ValueLayout.JAVA_LONG, 0));
        return scratch.get(ValueLayout.JAVA_LONG, length - 8);
    }

    /**
     * A call's first READ with the handles word in the same doorbell: {@code length} bytes at {@code at} into
     * the thread's buffer at {@code bufferOffset} and, after them, the handles word into the buffer at
     * {@code headerOffset}, as one doorbell batch of two READs (1 round trip, as the first READ alone); on the
     * thread's own node, CPU loads of the two in that order (8 bytes as one word). The word is checked
     * ({@link #check}) before the caller uses the bytes. Uses the thread's doorbell batch, which must be empty.
     *
     * @param thread       the handle's compute thread
     * @param at           the bytes to read, on the root's node
     * @param bufferOffset where they go in the thread's buffer
     * @param length       how many, 8 or more
     * @param headerOffset where the handles word goes in the thread's buffer, apart from the bytes
     * @throws RuntimeException the structure's closed exception, when it was destroyed
     */
    public void readWithHeader(ComputeThread thread, long at, long bufferOffset, int length, long headerOffset) {
        if (RemotePtr.node(at) == thread.nodeId()) {
            if (length == Long.BYTES) {
                thread.buffer().set(ValueLayout.JAVA_LONG, bufferOffset, thread.read(at));
            } else {
                thread.read(at, bufferOffset, length);
            }
            check(thread.read(headerAddress()));
            return;
        }
        thread.batch().read(at, bufferOffset, length).read(headerAddress(), headerOffset, 8).execute();
        check(thread.buffer().get(ValueLayout.JAVA_LONG, headerOffset));
    }

    /**
     * A call's WRITE with the handles word READ in the same doorbell: the READ of the handles word into the
     * thread's buffer at {@code headerOffset}, then the WRITE of {@code length} bytes of the buffer at
     * {@code bufferOffset} to {@code at}, as one doorbell batch (1 round trip, as the WRITE alone); on the thread's
     * own node, a CPU load of the handles word, then the WRITE as {@link ComputeThread#write(long, long, int)} does
     * it. The word is checked ({@link #check}) after: the WRITE of a call that throws landed in the destroyed
     * structure, which nobody reads, never in another owner's memory (the structure's memory stays allocated while
     * this handle is open). Uses the thread's doorbell batch, which must be empty.
     *
     * @param thread       the handle's compute thread
     * @param at           where the bytes go, on the root's node
     * @param bufferOffset where they are in the thread's buffer
     * @param length       how many
     * @param headerOffset where the handles word goes in the thread's buffer, apart from the bytes
     * @throws RuntimeException the structure's closed exception, when it was destroyed
     */
    public void writeWithHeader(ComputeThread thread, long at, long bufferOffset, int length, long headerOffset) {
        if (RemotePtr.node(at) == thread.nodeId()) {
            check(thread.read(headerAddress()));
            thread.write(at, bufferOffset, length);
            return;
        }
        thread.batch().read(headerAddress(), headerOffset, 8).write(at, bufferOffset, length).execute();
        check(thread.buffer().get(ValueLayout.JAVA_LONG, headerOffset));
    }

    /**
     * Checks that the structure was not destroyed: one READ of the handles word (1 round trip).
     *
     * @param thread the handle's compute thread
     * @throws RuntimeException the structure's closed exception, when it was destroyed
     */
    public void checkLive(ComputeThread thread) {
        check(thread.read(headerAddress()));
    }

    /**
     * Closes this handle: one fetch-and-add of -1 on the handles word (1 round trip). When the structure was
     * destroyed and this was its last open handle, frees the structure: {@code freeBlocks} frees every block but
     * the root (the caller's walk), then the root block is freed in the life this handle knows (the allocator's
     * costs, {@link io.remus.core.RemoteAllocator#deallocate(long, long, long)}). A second close does
     * nothing.
     *
     * @param thread     the handle's compute thread
     * @param rootBytes  bytes of the root after the two words, as given to {@link #allocate}
     * @param freeBlocks frees the structure's other blocks; runs on this thread, at most once per structure
     */
    public void close(ComputeThread thread, long rootBytes, Runnable freeBlocks) {
        if (closed) {
            return;
        }
        closed = true;
        release(thread, rootBytes, freeBlocks);
    }

    /** Drops this handle from the handles word (one fetch-and-add), freeing a destroyed structure's last handle's. */
    private void release(ComputeThread thread, long rootBytes, Runnable freeBlocks) {
        long before = thread.fetchAndAdd(headerAddress(), -1);
        if (before == (handles(BlockHeader.incarnation(blockHeader), 1) | DESTROYED)) {
            free(thread, rootBytes, freeBlocks);
        }
    }

    /**
     * Destroys the structure and closes this handle: one compare-and-swap of the handles word that marks it
     * destroyed and drops this handle (1 round trip when this is the only open handle, else one READ and one
     * compare-and-swap more, per handle opened or closed in between). When no other handle is open, frees the
     * structure as {@link #close} does; else the last of the others to close frees it. Every call of any handle
     * that starts after this returns throws the structure's closed exception. Of two destroys, in any handles
     * and processes, exactly one marks the structure; the other closes its handle and throws.
     *
     * @param thread     the handle's compute thread
     * @param rootBytes  bytes of the root after the two words, as given to {@link #allocate}
     * @param freeBlocks frees the structure's other blocks; runs on this thread, at most once per structure
     * @throws RuntimeException the structure's closed exception, when this handle is closed or another handle
     *                          destroyed the structure first; this handle is closed once the destroy is decided,
     *                          refused or not (a remote error such as a timeout leaves it open and counted)
     */
    public void destroy(ComputeThread thread, long rootBytes, Runnable freeBlocks) {
        requireOpen();
        long handlesAt = headerAddress();
        long expected = handles(BlockHeader.incarnation(blockHeader), 1);
        while (true) {
            // A compare-and-swap that fails remotely (a timeout) leaves this handle open and counted, so that
            // close() can still drop it.
            long seen = thread.compareAndSwap(handlesAt, expected, (expected - 1) | DESTROYED);
            if (seen == expected) {
                closed = true;
                if ((expected & COUNT_MASK) == 1) {
                    free(thread, rootBytes, freeBlocks);
                }
                return;
            }
            if ((seen & DESTROYED) != 0) {
                closed = true;
                release(thread, rootBytes, freeBlocks);
                throw destroyed.apply("the " + this + " was destroyed by another handle");
            }
            // A word of another incarnation: the block was freed and reused, and nothing there is this handle's.
            closed = !isLive(seen);
            check(seen);
            expected = seen;
        }
    }

    private void free(ComputeThread thread, long rootBytes, Runnable freeBlocks) {
        try {
            freeBlocks.run();
        } finally {
            try {
                thread.allocator().deallocate(RemotePtr.offset(ptr, -BYTES), rootBytes + BYTES, blockHeader);
            } catch (DoubleFreeException e) {
                throw new IllegalStateException("the " + this + " was freed by another handle although this one was"
                        + " its last: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public String toString() {
        return kind.typeName() + " at " + RemotePtr.toString(ptr);
    }
}
