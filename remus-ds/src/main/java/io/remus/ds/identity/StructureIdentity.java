package io.remus.ds.identity;

import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.DoubleFreeException;
import io.remus.core.RemotePtr;
import io.remus.core.memory.BlockHeader;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.function.Function;

/**
 * The identity of one structure's root, as one handle knows it: which kind of structure it is, and which life
 * of its root block. Every structure of remus-ds puts one identity word in front of its root, in the root's
 * own allocator block:
 *
 * <pre>
 *  ptr - 16  the allocator's header of the root block ({@link BlockHeader}: state, size class, incarnation)
 *  ptr - 8   the identity word:
 *            63        48 47      40 39       32 31                      0
 *           +------------+----------+-----------+-------------------------+
 *           | magic "RM" | kind tag | version   | incarnation at creation |
 *           +------------+----------+-----------+-------------------------+
 *  ptr       the structure's root, as its class documents it; {@code ptr} is what {@code ptr()} returns
 * </pre>
 *
 * <p><b>Attach</b> reads the block header, the identity word and the root's first bytes in one RDMA READ, and
 * accepts the pointer only when the block is allocated, the identity word is a structure's of the expected
 * kind and layout version, and its incarnation is the block's: a pointer to another kind of structure or to
 * no structure is a {@link WrongStructureException} naming what is there; a structure that was destroyed (its
 * block is free, or was reused since: the block's incarnation moved past the identity word's) is the
 * structure's own closed exception. The handle keeps the block header word it saw.
 *
 * <p><b>Destroy</b> frees the root block only in the life the handle knows
 * ({@link io.remus.core.memory.RemoteAllocator#deallocate(long, long, long)}): of two handles that destroy one
 * structure, in any processes, exactly one frees it and the other gets the closed exception, and a handle
 * whose structure was destroyed and its block reused never frees the new owner's block. A destroyed root
 * block's header says so until the block is reused, and after that its incarnation differs from the one the
 * handle kept; a handle whose operation reads the header along with the root (the 16 bytes before it, in the
 * same READ) learns that its structure was destroyed from {@link #check(long)}, at no extra RDMA operation,
 * and {@link #checkLive} costs one READ.
 *
 * <p>One identity per handle, used by the handle's thread.
 */
public final class StructureIdentity {
    /** Bytes of the identity word in front of a root. */
    public static final int BYTES = 8;
    /** Bytes before a root that a READ covering the block header and the identity word starts at. */
    public static final int PREFIX_BYTES = BlockHeader.SIZE + BYTES;
    private static final long MAGIC = 0x524DL;

    private final StructureKind kind;
    private final long ptr;
    private final long blockHeader;
    private final Function<String, ? extends RuntimeException> destroyed;

    private StructureIdentity(StructureKind kind, long ptr, long blockHeader,
                              Function<String, ? extends RuntimeException> destroyed) {
        this.kind = kind;
        this.ptr = ptr;
        this.blockHeader = blockHeader;
        this.destroyed = destroyed;
    }

    /**
     * Allocates a structure's root block with its identity word in front: {@code rootBytes + }{@value #BYTES}
     * bytes on node {@code nodeId} with {@code thread}'s allocator, then the block header read (a CPU load on
     * the thread's own node, else one READ) and the identity word stored (a CPU store on the thread's own node,
     * else one WRITE), before anyone else can know the pointer.
     *
     * @param thread    the creator's compute thread
     * @param kind      the structure's kind
     * @param rootBytes bytes of the root after the identity word, positive
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
        long header;
        if (RemotePtr.node(block) == thread.nodeId()) {
            header = thread.localSegment(BlockHeader.address(block), BlockHeader.SIZE).get(ValueLayout.JAVA_LONG, 0);
            thread.localSegment(block, BYTES).set(ValueLayout.JAVA_LONG, 0, word(kind, BlockHeader.incarnation(header)));
        } else {
            header = thread.read(BlockHeader.address(block));
            thread.write(block, word(kind, BlockHeader.incarnation(header)));
        }
        return new StructureIdentity(kind, RemotePtr.offset(block, BYTES), header, destroyed);
    }

    /**
     * Checks that {@code ptr} is the root of a live structure of {@code kind}, and copies the root's first
     * {@code root.byteSize()} bytes into {@code root}: one READ of {@value #PREFIX_BYTES} + {@code root.byteSize()}
     * bytes from {@code ptr - }{@value #PREFIX_BYTES} (1 round trip).
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
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(destroyed, "destroyed");
        if (RemotePtr.isNull(ptr) || (RemotePtr.address(ptr) & 7) != 0 || RemotePtr.address(ptr) < PREFIX_BYTES) {
            throw new BadArgumentException("a " + kind.typeName() + "'s root must be non-null and 8-byte aligned, got "
                    + RemotePtr.toString(ptr));
        }
        MemorySegment words = MemorySegment.ofArray(new long[(int) ((PREFIX_BYTES + root.byteSize() + 7) / 8)]);
        thread.read(RemotePtr.offset(ptr, -PREFIX_BYTES), words.asSlice(0, PREFIX_BYTES + root.byteSize()));
        long header = words.get(ValueLayout.JAVA_LONG, 0);
        long identity = words.get(ValueLayout.JAVA_LONG, BlockHeader.SIZE);
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
        MemorySegment.copy(words, PREFIX_BYTES, root, 0, root.byteSize());
        return new StructureIdentity(kind, ptr, header, destroyed);
    }

    /** {@return the identity word of a structure of {@code kind} whose root block is in incarnation {@code incarnation}} */
    static long word(StructureKind kind, int incarnation) {
        return (MAGIC << 48) | ((long) kind.tag() << 40) | ((long) kind.version() << 32) | Integer.toUnsignedLong(incarnation);
    }

    /**
     * {@return the allocation size of a root of {@code rootBytes}: the size an allocator's statistics and size
     * classes see}
     *
     * @param rootBytes bytes of the root after the identity word
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

    /** {@return the address of the root block's allocator header: a READ from here covers it, the identity word and the root} */
    public long headerAddress() {
        return RemotePtr.offset(ptr, -PREFIX_BYTES);
    }

    /** {@return the root block's header word in the life this handle knows} */
    public long blockHeader() {
        return blockHeader;
    }

    /**
     * Checks a header word read from {@link #headerAddress()} (in the same READ as data of the root): no RDMA
     * operation.
     *
     * @param header the word read
     * @throws RuntimeException the structure's closed exception, when the word is not this life's header: the
     *                          structure was destroyed (and the data read with it is not the structure's)
     */
    public void check(long header) {
        if (header != blockHeader) {
            String now = BlockHeader.isHeaderOf(RemotePtr.offset(ptr, -BYTES), header) ? BlockHeader.describe(header) : "0x" + Long.toHexString(header);
            throw destroyed.apply("the " + kind.typeName() + " at " + RemotePtr.toString(ptr) + " was destroyed: its"
                    + " root block's header went from " + BlockHeader.describe(blockHeader) + " to " + now);
        }
    }

    /**
     * Reads the root's word at {@code offset}: one READ from the root block's header through that word into
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
     * A call's first READ with the root block's header in the same doorbell: {@code length} bytes at {@code at} into
     * the thread's buffer at {@code bufferOffset} and, after them, the header word into the buffer at
     * {@code headerOffset}, as one doorbell batch of two READs (1 round trip, as the first READ alone); on the
     * thread's own node, CPU loads of the two in that order (8 bytes as one word). The header is checked
     * ({@link #check}) before the caller uses the bytes. Uses the thread's doorbell batch, which must be empty.
     *
     * @param thread       the handle's compute thread
     * @param at           the bytes to read, on the root's node
     * @param bufferOffset where they go in the thread's buffer
     * @param length       how many, 8 or more
     * @param headerOffset where the header word goes in the thread's buffer, apart from the bytes
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
     * Checks that the structure was not destroyed: one READ of the root block's header (1 round trip).
     *
     * @param thread the handle's compute thread
     * @throws RuntimeException the structure's closed exception, when it was destroyed
     */
    public void checkLive(ComputeThread thread) {
        check(thread.read(headerAddress()));
    }

    /**
     * Frees the root block in the life this handle knows: the allocator's costs
     * ({@link io.remus.core.memory.RemoteAllocator#deallocate(long, long, long)}). Call it before freeing the
     * structure's other blocks: only the caller that freed the root may free them.
     *
     * @param thread    the handle's compute thread
     * @param rootBytes bytes of the root after the identity word, as given to {@link #allocate}
     * @throws RuntimeException the structure's closed exception, when another handle destroyed the structure first
     */
    public void destroy(ComputeThread thread, long rootBytes) {
        try {
            thread.allocator().deallocate(RemotePtr.offset(ptr, -BYTES), rootBytes + BYTES, blockHeader);
        } catch (DoubleFreeException e) {
            RuntimeException closed = destroyed.apply("the " + kind.typeName() + " at " + RemotePtr.toString(ptr)
                    + " was destroyed by another handle: " + e.getMessage());
            closed.initCause(e);
            throw closed;
        }
    }

    @Override
    public String toString() {
        return kind.typeName() + " at " + RemotePtr.toString(ptr);
    }
}
