package io.remus.core;

import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.DoubleFreeException;
import io.remus.core.error.InvalidFreeException;
import io.remus.core.error.RemoteOperationException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.ThreadConfinementException;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The layout of a record in remote memory, declared once, with its 8-byte words read, written,
 * compared-and-swapped and fetched-and-added by name: the typed remote pointer of Remus
 * ({@code rdma_ptr<T>}) for Java. A struct is a {@link StructLayout}; a pointer to one is a plain
 * {@link RemotePtr} word, as everywhere else.
 *
 * <pre>{@code
 * static final RemoteStruct PAIR = RemoteStruct.of(MemoryLayout.structLayout(
 *         ValueLayout.JAVA_LONG.withName("count"),
 *         ValueLayout.JAVA_LONG.withName("next")).withName("pair"));
 * static final RemoteStruct.Field COUNT = PAIR.field("count");
 *
 *     long p = PAIR.allocate(thread);
 *     COUNT.set(thread, p, 0);
 *     COUNT.fetchAndAdd(thread, p, 1);
 * }</pre>
 *
 * <pre>
 *  pair            offset
 * +---------------+  0
 * | count (long)  |
 * +---------------+  8
 * | next  (long)  |
 * +---------------+ 16
 * </pre>
 *
 * <p><b>Declaration.</b> {@link #of} takes the layout as {@link MemoryLayout#structLayout} built it,
 * which already places every member at a multiple of its alignment (a {@code JAVA_INT} before a
 * {@code JAVA_LONG} needs {@code MemoryLayout.paddingLayout(4)} between them). {@link #field} resolves
 * a top-level member's name to its offset once, into a {@link Field}, and refuses, with a
 * {@link BadArgumentException} naming the field, what an RDMA word operation cannot move whole: an
 * unknown name (the message lists the struct's fields), a member that is not a {@code long}, one in
 * the other byte order, or one aligned to fewer than 8 bytes ({@code JAVA_LONG_UNALIGNED}). So every
 * field can take a compare-and-swap and a fetch-and-add (RDMA atomics are 8 bytes, 8-byte aligned).
 * Members of other types (an {@code int}, a byte array, a nested struct) travel with the whole struct
 * ({@link #read(ComputeThread, long, MemorySegment)}) and are read from the local copy with the
 * layout's own var handles.
 *
 * <p><b>Access.</b> Every field access is exactly the {@link ComputeThread} operation on
 * {@code RemotePtr.offset(ptr, field.offset())}: the same work requests, the same counts in
 * {@link ComputeThread#postedOperations}, the same local (CPU) path on the thread's own node; the
 * whole struct is one READ or one WRITE of {@link #byteSize()} bytes. Before anything is posted, a
 * null {@code ptr}, a {@code ptr} not aligned to the layout's alignment, a segment smaller than the
 * struct or a struct larger than the thread's buffer is a {@link BadArgumentException}, and a null
 * argument a {@link NullPointerException} naming the parameter. No access allocates.
 *
 * <p>A whole-struct READ is not atomic across its words: a struct that other threads change while it
 * is read can arrive torn. Data larger than a word that others change carries a version or is
 * published out of place by one pointer compare-and-swap.
 *
 * <p>Immutable and thread-safe; its {@link Field}s too. Every access runs on the calling thread's own
 * {@link ComputeThread}, under that thread's confinement ({@link ThreadConfinementException} from another
 * Java thread).
 */
public final class RemoteStruct {
    private static final long WORD = 8;

    private final StructLayout layout;
    private final String name;
    private final long size;
    private final long alignment;
    private final List<String> names;
    private final List<MemoryLayout> members;
    private final long[] offsets;

    private RemoteStruct(StructLayout layout, String name, List<String> names, List<MemoryLayout> members, long[] offsets) {
        this.layout = layout;
        this.name = name;
        this.size = layout.byteSize();
        this.alignment = layout.byteAlignment();
        this.names = List.copyOf(names);
        this.members = List.copyOf(members);
        this.offsets = offsets;
    }

    /**
     * Declares a remote struct. No RDMA.
     *
     * @param layout the struct's layout; its name, when it has one, names the struct in messages
     * @return the struct
     * @throws BadArgumentException when the layout has no bytes, or two of its members have the same name
     */
    public static RemoteStruct of(StructLayout layout) {
        Objects.requireNonNull(layout, "layout");
        String name = layout.name().orElse("struct");
        if (layout.byteSize() == 0) {
            throw new BadArgumentException("struct '" + name + "' has no bytes: a remote struct has at least one member");
        }
        List<String> names = new ArrayList<>();
        List<MemoryLayout> members = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        long at = 0;
        for (MemoryLayout member : layout.memberLayouts()) {
            Optional<String> memberName = member.name();
            if (memberName.isPresent()) {
                if (names.contains(memberName.get())) {
                    throw new BadArgumentException("struct '" + name + "' has two members named '" + memberName.get()
                            + "': field names are unique");
                }
                names.add(memberName.get());
                members.add(member);
                offsets.add(at);
            }
            at += member.byteSize();
        }
        return new RemoteStruct(layout, name, names, members, offsets.stream().mapToLong(Long::longValue).toArray());
    }

    /** {@return the layout the struct was declared with} */
    public StructLayout layout() {
        return layout;
    }

    /** {@return the layout's name, or {@code "struct"} when it has none} */
    public String name() {
        return name;
    }

    /** {@return the struct's size in bytes, padding included: what a whole-struct READ or WRITE moves} */
    public long byteSize() {
        return size;
    }

    /** {@return the names of the struct's named top-level members, in layout order (the names {@link #field} knows)} */
    public List<String> fieldNames() {
        return names;
    }

    /**
     * Resolves a field by name, once: keep the handle (a {@code static final} beside the struct) and
     * access through it. No RDMA.
     *
     * @param fieldName a named top-level member of the layout
     * @return the field's handle
     * @throws BadArgumentException naming the field when the struct has no member of that name (listing
     *                              the names it has), or the member is not an 8-byte aligned {@code long}
     *                              in the native byte order ({@code ValueLayout.JAVA_LONG})
     */
    public Field field(String fieldName) {
        Objects.requireNonNull(fieldName, "fieldName");
        int i = names.indexOf(fieldName);
        if (i < 0) {
            throw new BadArgumentException("struct '" + name + "' has no field '" + fieldName + "'; its fields: " + names);
        }
        MemoryLayout member = members.get(i);
        String which = "field '" + fieldName + "' of struct '" + name + "'";
        if (!(member instanceof ValueLayout.OfLong word)) {
            throw new BadArgumentException(which + " is " + member + " (" + member.byteSize() + " bytes), not a long: a field"
                    + " is an 8-byte word (ValueLayout.JAVA_LONG); read other members with the whole struct");
        }
        if (word.order() != ByteOrder.nativeOrder()) {
            throw new BadArgumentException(which + " is " + word.order() + "; remote words are in the native order "
                    + ByteOrder.nativeOrder() + ", in which RDMA atomics add and compare");
        }
        if (word.byteAlignment() < WORD) {
            throw new BadArgumentException(which + " is aligned to " + word.byteAlignment() + " bytes; RDMA atomics need an"
                    + " 8-byte aligned word (ValueLayout.JAVA_LONG, not JAVA_LONG_UNALIGNED)");
        }
        return new Field(this, fieldName, offsets[i]);
    }

    // ---------------------------------------------------------------- whole struct

    /**
     * Reads the whole struct at {@code ptr} into {@code destination} (its first {@link #byteSize()}
     * bytes), staged through the thread's registered buffer: {@link ComputeThread#read(long, MemorySegment)}.
     * One RDMA READ of {@link #byteSize()} bytes, one round trip; on the thread's own node a CPU copy,
     * no RDMA. Wait-free (bounded by the operation timeout). Allocates nothing when
     * {@code destination} is exactly {@link #byteSize()} bytes.
     *
     * @param thread      the calling thread's compute thread
     * @param ptr         the struct
     * @param destination where its bytes go, at least {@link #byteSize()} bytes, writable
     * @throws BadArgumentException     when {@code ptr} is null or not aligned to the layout, {@code destination}
     *                                  is smaller than the struct or read-only, or the struct is larger than the
     *                                  thread's buffer; or as {@link ComputeThread#read(long, MemorySegment)}
     * @throws RemoteOperationException when the READ completed with an error
     * @throws RemoteTimeoutException   when it did not complete within the operation timeout
     */
    public void read(ComputeThread thread, long ptr, MemorySegment destination) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(destination, "destination");
        check(ptr);
        checkSegment(destination, true);
        checkStaged(thread);
        thread.read(ptr, destination.byteSize() == size ? destination : destination.asSlice(0, size));
    }

    /**
     * Writes the whole struct at {@code ptr} from {@code source} (its first {@link #byteSize()} bytes),
     * staged through the thread's registered buffer: {@link ComputeThread#write(long, MemorySegment)}.
     * One RDMA WRITE of {@link #byteSize()} bytes (through the NIC on the thread's own node too), one
     * round trip. Wait-free (bounded by the operation timeout). Allocates nothing when {@code source}
     * is exactly {@link #byteSize()} bytes.
     *
     * @param thread the calling thread's compute thread
     * @param ptr    the struct
     * @param source its new bytes, at least {@link #byteSize()} bytes
     * @throws BadArgumentException     when {@code ptr} is null or not aligned to the layout, {@code source} is
     *                                  smaller than the struct, or the struct is larger than the thread's buffer;
     *                                  or as {@link ComputeThread#write(long, MemorySegment)}
     * @throws RemoteOperationException when the WRITE completed with an error
     * @throws RemoteTimeoutException   when it did not complete within the operation timeout
     */
    public void write(ComputeThread thread, long ptr, MemorySegment source) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(source, "source");
        check(ptr);
        checkSegment(source, false);
        checkStaged(thread);
        thread.write(ptr, source.byteSize() == size ? source : source.asSlice(0, size));
    }

    /**
     * Reads the whole struct at {@code ptr} into the thread's {@link ComputeThread#buffer()} at
     * {@code bufferOffset}, zero-copy: {@link ComputeThread#read(long, long, int)}. One RDMA READ of
     * {@link #byteSize()} bytes, one round trip; on the thread's own node a CPU copy, no RDMA.
     * Wait-free (bounded by the operation timeout). Allocates nothing.
     *
     * @param thread       the calling thread's compute thread
     * @param ptr          the struct
     * @param bufferOffset where in the thread's buffer the struct lands
     * @throws BadArgumentException     when {@code ptr} is null or not aligned to the layout, or the struct at
     *                                  {@code bufferOffset} does not fit the buffer; or as the compute thread's read
     * @throws RemoteOperationException when the READ completed with an error
     * @throws RemoteTimeoutException   when it did not complete within the operation timeout
     */
    public void read(ComputeThread thread, long ptr, long bufferOffset) {
        Objects.requireNonNull(thread, "thread");
        check(ptr);
        thread.read(ptr, bufferOffset, length());
    }

    /**
     * Writes the whole struct at {@code ptr} from the thread's {@link ComputeThread#buffer()} at
     * {@code bufferOffset}, zero-copy: {@link ComputeThread#write(long, long, int)}. One RDMA WRITE of
     * {@link #byteSize()} bytes, one round trip. Wait-free (bounded by the operation timeout).
     * Allocates nothing.
     *
     * @param thread       the calling thread's compute thread
     * @param ptr          the struct
     * @param bufferOffset where in the thread's buffer the struct's new bytes are
     * @throws BadArgumentException     when {@code ptr} is null or not aligned to the layout, or the struct at
     *                                  {@code bufferOffset} does not fit the buffer; or as the compute thread's write
     * @throws RemoteOperationException when the WRITE completed with an error
     * @throws RemoteTimeoutException   when it did not complete within the operation timeout
     */
    public void write(ComputeThread thread, long ptr, long bufferOffset) {
        Objects.requireNonNull(thread, "thread");
        check(ptr);
        thread.write(ptr, bufferOffset, length());
    }

    /**
     * Starts reading the whole struct at {@code ptr} into the thread's buffer at {@code bufferOffset}:
     * {@link ComputeThread#readAsync}. One RDMA READ of {@link #byteSize()} bytes (on the thread's own
     * node a CPU copy, done at once). Allocates nothing.
     *
     * @param thread       the calling thread's compute thread
     * @param ptr          the struct
     * @param bufferOffset where in the thread's buffer the struct lands
     * @param fence        whether to fence behind the thread's earlier READs and atomics on the queue pair
     * @return the operation's {@link OpHandle}, for {@link ComputeThread#await(long)}
     * @throws BadArgumentException when {@code ptr} is null or not aligned to the layout, or the struct at
     *                              {@code bufferOffset} does not fit the buffer; or as {@link ComputeThread#readAsync}
     */
    public long readAsync(ComputeThread thread, long ptr, long bufferOffset, boolean fence) {
        Objects.requireNonNull(thread, "thread");
        check(ptr);
        return thread.readAsync(ptr, bufferOffset, length(), fence);
    }

    /**
     * Starts writing the whole struct at {@code ptr} from the thread's buffer at {@code bufferOffset}:
     * {@link ComputeThread#writeAsync}. One RDMA WRITE of {@link #byteSize()} bytes. Allocates nothing.
     *
     * @param thread       the calling thread's compute thread
     * @param ptr          the struct
     * @param bufferOffset where in the thread's buffer the struct's new bytes are
     * @param fence        whether to fence behind the thread's earlier READs and atomics on the queue pair
     * @return the operation's {@link OpHandle}, for {@link ComputeThread#await(long)}
     * @throws BadArgumentException when {@code ptr} is null or not aligned to the layout, or the struct at
     *                              {@code bufferOffset} does not fit the buffer; or as {@link ComputeThread#writeAsync}
     */
    public long writeAsync(ComputeThread thread, long ptr, long bufferOffset, boolean fence) {
        Objects.requireNonNull(thread, "thread");
        check(ptr);
        return thread.writeAsync(ptr, bufferOffset, length(), fence);
    }

    // ---------------------------------------------------------------- allocation

    /**
     * Allocates one struct on the memory node the allocation policy picks, with the thread's
     * {@link ComputeThread#allocator()}: {@code allocator().allocate(byteSize())}, with its RDMA
     * operations and progress (lock-free; one compare-and-swap for a cached block). The block's bytes are
     * what it held before: write the struct before publishing its pointer.
     *
     * @param thread the calling thread's compute thread
     * @return the struct's pointer, 8-byte aligned
     * @throws BadArgumentException         when the layout needs an alignment above 8 bytes (the allocator's
     *                                      blocks are 8-byte aligned) or is larger than an allocator block; or
     *                                      as {@link RemoteAllocator#allocate(long)}
     * @throws AllocationExhaustedException when the node has no room
     */
    public long allocate(ComputeThread thread) {
        Objects.requireNonNull(thread, "thread");
        checkAllocatable();
        return thread.allocator().allocate(size);
    }

    /**
     * Allocates one struct on memory node {@code nodeId}: {@code allocator().allocate(byteSize(), nodeId)},
     * with its RDMA operations and progress ({@link RemoteAllocator#allocate(long, int)}).
     *
     * @param thread the calling thread's compute thread
     * @param nodeId a memory node
     * @return the struct's pointer, 8-byte aligned
     * @throws BadArgumentException         when the layout needs an alignment above 8 bytes or is larger than an
     *                                      allocator block, or the node is not a memory node
     * @throws AllocationExhaustedException when the node has no room
     */
    public long allocate(ComputeThread thread, int nodeId) {
        Objects.requireNonNull(thread, "thread");
        checkAllocatable();
        return thread.allocator().allocate(size, nodeId);
    }

    /**
     * Frees a struct {@link #allocate} returned: {@code allocator().deallocate(ptr, byteSize())}, with
     * its checks and RDMA operations ({@link RemoteAllocator#deallocate(long, long)}).
     *
     * @param thread the calling thread's compute thread
     * @param ptr    the struct, not freed since
     * @throws BadArgumentException when {@code ptr} is null or not aligned to the layout; or as the allocator's free
     * @throws InvalidFreeException when {@code ptr} is not a live block of the struct's size class
     * @throws DoubleFreeException  when it is already free
     */
    public void deallocate(ComputeThread thread, long ptr) {
        Objects.requireNonNull(thread, "thread");
        check(ptr);
        thread.allocator().deallocate(ptr, size);
    }

    /** {@return the struct's name and layout} */
    @Override
    public String toString() {
        return "RemoteStruct[" + name + ": " + layout + "]";
    }

    // ---------------------------------------------------------------- checks

    private long check(long ptr) {
        if (ptr == RemotePtr.NULL) {
            throw new BadArgumentException("null pointer to struct '" + name + "'");
        }
        if ((RemotePtr.address(ptr) & (alignment - 1)) != 0) {
            throw new BadArgumentException("struct '" + name + "' at " + RemotePtr.toString(ptr) + " is not "
                    + alignment + "-byte aligned, as its layout is");
        }
        return ptr;
    }

    private void checkSegment(MemorySegment segment, boolean written) {
        if (segment.byteSize() < size) {
            throw new BadArgumentException("a segment of " + segment.byteSize() + " bytes cannot hold struct '" + name
                    + "' of " + size + " bytes");
        }
        if (written && segment.isReadOnly()) {
            throw new BadArgumentException("the segment written with struct '" + name + "' is read-only");
        }
    }

    private void checkStaged(ComputeThread thread) {
        int buffer = thread.config().bufferSizePerThread();
        if (size > buffer) {
            throw new BadArgumentException("struct '" + name + "' of " + size + " bytes is larger than the thread's buffer of "
                    + buffer + " bytes, which one READ or WRITE of it goes through");
        }
    }

    private int length() {
        if (size > Integer.MAX_VALUE) {
            throw new BadArgumentException("struct '" + name + "' of " + size + " bytes is larger than one RDMA transfer");
        }
        return (int) size;
    }

    private void checkAllocatable() {
        if (alignment > WORD) {
            throw new BadArgumentException("struct '" + name + "' needs " + alignment + "-byte alignment; the allocator's"
                    + " blocks are 8-byte aligned");
        }
    }

    /**
     * A named 8-byte word of a {@link RemoteStruct}, resolved once by {@link RemoteStruct#field}: its
     * offset is fixed, and each access is one {@link ComputeThread} word operation on
     * {@code RemotePtr.offset(ptr, offset())}, checked first as the struct checks {@code ptr}.
     * Every access allocates nothing. Immutable and thread-safe.
     */
    public static final class Field {
        private final RemoteStruct struct;
        private final String name;
        private final long offset;

        private Field(RemoteStruct struct, String name, long offset) {
            this.struct = struct;
            this.name = name;
            this.offset = offset;
        }

        /** {@return the struct this field belongs to} */
        public RemoteStruct struct() {
            return struct;
        }

        /** {@return the field's name} */
        public String name() {
            return name;
        }

        /** {@return the field's offset in the struct, in bytes, a multiple of 8} */
        public long offset() {
            return offset;
        }

        /**
         * The pointer of this field in the struct at {@code ptr}, for the operations this class does not
         * wrap (a {@link DoorbellBatch} entry, a fenced synchronous operation, a range). No RDMA.
         *
         * @param ptr the struct
         * @return {@code RemotePtr.offset(ptr, offset())}
         * @throws BadArgumentException when {@code ptr} is null, not aligned to the struct's layout, or the field
         *                              would lie outside the 48-bit address space
         */
        public long at(long ptr) {
            return RemotePtr.offset(struct.check(ptr), offset);
        }

        /**
         * Reads the field of the struct at {@code ptr}: {@link ComputeThread#read(long)}. One RDMA READ
         * of 8 bytes, one round trip; on the thread's own node a CPU load, no RDMA. Wait-free (bounded by
         * the operation timeout).
         *
         * @param thread the calling thread's compute thread
         * @param ptr    the struct
         * @return the field's value
         * @throws BadArgumentException     when {@code ptr} is null or not aligned to the struct's layout; or as
         *                                  {@link ComputeThread#read(long)}
         * @throws RemoteOperationException when the READ completed with an error
         * @throws RemoteTimeoutException   when it did not complete within the operation timeout
         */
        public long get(ComputeThread thread, long ptr) {
            Objects.requireNonNull(thread, "thread");
            return thread.read(at(ptr));
        }

        /**
         * Writes the field of the struct at {@code ptr}: {@link ComputeThread#write(long, long)}. One
         * RDMA WRITE of 8 bytes (through the NIC on the thread's own node too), one round trip.
         * Wait-free (bounded by the operation timeout). A word that RDMA atomics race on changes only by
         * {@link #compareAndSwap} or {@link #fetchAndAdd} (see {@link ComputeThread}).
         *
         * @param thread the calling thread's compute thread
         * @param ptr    the struct
         * @param value  the field's new value
         * @throws BadArgumentException     when {@code ptr} is null or not aligned to the struct's layout; or as
         *                                  {@link ComputeThread#write(long, long)}
         * @throws RemoteOperationException when the WRITE completed with an error
         * @throws RemoteTimeoutException   when it did not complete within the operation timeout
         */
        public void set(ComputeThread thread, long ptr, long value) {
            Objects.requireNonNull(thread, "thread");
            thread.write(at(ptr), value);
        }

        /**
         * Compares the field of the struct at {@code ptr} with {@code expected} and, if equal, replaces it
         * by {@code desired}, atomically among NIC atomics: {@link ComputeThread#compareAndSwap(long, long, long)}.
         * One RDMA compare-and-swap (through the NIC on the thread's own node too), one round trip.
         * Wait-free (bounded by the operation timeout).
         *
         * @param thread   the calling thread's compute thread
         * @param ptr      the struct
         * @param expected the value the field must hold
         * @param desired  its new value
         * @return the value it held (equal to {@code expected} when the swap happened)
         * @throws BadArgumentException     when {@code ptr} is null or not aligned to the struct's layout; or as
         *                                  {@link ComputeThread#compareAndSwap(long, long, long)}
         * @throws RemoteOperationException when the compare-and-swap completed with an error
         * @throws RemoteTimeoutException   when it did not complete within the operation timeout
         */
        public long compareAndSwap(ComputeThread thread, long ptr, long expected, long desired) {
            Objects.requireNonNull(thread, "thread");
            return thread.compareAndSwap(at(ptr), expected, desired);
        }

        /**
         * Adds {@code delta} to the field of the struct at {@code ptr}, atomically among NIC atomics:
         * {@link ComputeThread#fetchAndAdd(long, long)}. One RDMA fetch-and-add (through the NIC on the
         * thread's own node too), one round trip. Wait-free (bounded by the operation timeout).
         *
         * @param thread the calling thread's compute thread
         * @param ptr    the struct
         * @param delta  what to add
         * @return the value the field held before
         * @throws BadArgumentException     when {@code ptr} is null or not aligned to the struct's layout; or as
         *                                  {@link ComputeThread#fetchAndAdd(long, long)}
         * @throws RemoteOperationException when the fetch-and-add completed with an error
         * @throws RemoteTimeoutException   when it did not complete within the operation timeout
         */
        public long fetchAndAdd(ComputeThread thread, long ptr, long delta) {
            Objects.requireNonNull(thread, "thread");
            return thread.fetchAndAdd(at(ptr), delta);
        }

        /**
         * Starts reading the field of the struct at {@code ptr}: {@link ComputeThread#readWordAsync}. One
         * RDMA READ of 8 bytes (on the thread's own node a CPU load, done at once). Allocates nothing.
         *
         * @param thread the calling thread's compute thread
         * @param ptr    the struct
         * @param fence  whether to fence behind the thread's earlier READs and atomics on the queue pair
         * @return the operation's {@link OpHandle}; {@link ComputeThread#await(long)} returns the field's value
         * @throws BadArgumentException when {@code ptr} is null or not aligned to the struct's layout; or as
         *                              {@link ComputeThread#readWordAsync}
         */
        public long getAsync(ComputeThread thread, long ptr, boolean fence) {
            Objects.requireNonNull(thread, "thread");
            return thread.readWordAsync(at(ptr), fence);
        }

        /**
         * Starts writing the field of the struct at {@code ptr}: {@link ComputeThread#writeWordAsync}. One
         * RDMA WRITE of 8 bytes. Allocates nothing.
         *
         * @param thread the calling thread's compute thread
         * @param ptr    the struct
         * @param value  the field's new value
         * @param fence  whether to fence behind the thread's earlier READs and atomics on the queue pair
         * @return the operation's {@link OpHandle}, for {@link ComputeThread#await(long)}
         * @throws BadArgumentException when {@code ptr} is null or not aligned to the struct's layout; or as
         *                              {@link ComputeThread#writeWordAsync}
         */
        public long setAsync(ComputeThread thread, long ptr, long value, boolean fence) {
            Objects.requireNonNull(thread, "thread");
            return thread.writeWordAsync(at(ptr), value, fence);
        }

        /**
         * Starts a compare-and-swap of the field of the struct at {@code ptr}:
         * {@link ComputeThread#compareAndSwapAsync}. One RDMA compare-and-swap. Allocates nothing.
         *
         * @param thread   the calling thread's compute thread
         * @param ptr      the struct
         * @param expected the value the field must hold
         * @param desired  its new value
         * @param fence    whether to fence behind the thread's earlier READs and atomics on the queue pair
         * @return the operation's {@link OpHandle}; {@link ComputeThread#await(long)} returns the old value
         * @throws BadArgumentException when {@code ptr} is null or not aligned to the struct's layout; or as
         *                              {@link ComputeThread#compareAndSwapAsync}
         */
        public long compareAndSwapAsync(ComputeThread thread, long ptr, long expected, long desired, boolean fence) {
            Objects.requireNonNull(thread, "thread");
            return thread.compareAndSwapAsync(at(ptr), expected, desired, fence);
        }

        /**
         * Starts a fetch-and-add of the field of the struct at {@code ptr}:
         * {@link ComputeThread#fetchAndAddAsync}. One RDMA fetch-and-add. Allocates nothing.
         *
         * @param thread the calling thread's compute thread
         * @param ptr    the struct
         * @param delta  what to add
         * @param fence  whether to fence behind the thread's earlier READs and atomics on the queue pair
         * @return the operation's {@link OpHandle}; {@link ComputeThread#await(long)} returns the old value
         * @throws BadArgumentException when {@code ptr} is null or not aligned to the struct's layout; or as
         *                              {@link ComputeThread#fetchAndAddAsync}
         */
        public long fetchAndAddAsync(ComputeThread thread, long ptr, long delta, boolean fence) {
            Objects.requireNonNull(thread, "thread");
            return thread.fetchAndAddAsync(at(ptr), delta, fence);
        }

        /**
         * Reads the field from a local copy of the struct (one a whole-struct read filled): a plain CPU
         * load at {@link #offset()}, no RDMA. Allocates nothing.
         *
         * @param local the struct's bytes, from its first byte, at least {@link RemoteStruct#byteSize()} bytes
         * @return the field's value there
         * @throws BadArgumentException when {@code local} is smaller than the struct
         */
        public long get(MemorySegment local) {
            Objects.requireNonNull(local, "local");
            struct.checkSegment(local, false);
            return local.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
        }

        /**
         * Writes the field into a local copy of the struct (one a whole-struct write will send): a plain
         * CPU store at {@link #offset()}, no RDMA. Allocates nothing.
         *
         * @param local the struct's bytes, from its first byte, at least {@link RemoteStruct#byteSize()} bytes, writable
         * @param value the field's new value
         * @throws BadArgumentException when {@code local} is smaller than the struct or read-only
         */
        public void set(MemorySegment local, long value) {
            Objects.requireNonNull(local, "local");
            struct.checkSegment(local, true);
            local.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, value);
        }

        /** {@return the struct's and the field's name and the field's offset} */
        @Override
        public String toString() {
            return struct.name + "." + name + "@" + offset;
        }
    }
}
