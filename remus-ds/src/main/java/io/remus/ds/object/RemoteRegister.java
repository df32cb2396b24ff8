package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.LeaseExpiredException;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * An atomic register for values of a fixed size larger than a word (1..{@code bufferSizePerThread - 16}
 * bytes, chosen at creation): a read never returns a torn value, only one that some write wrote.
 *
 * <pre>
 *  root - 16: the handles word, root - 8: the identity word ({@link StructureIdentity})
 *  root + 0: current   pointer to the current value block, changed only by RDMA compare-and-swap
 *  root + 8: size      the value's byte count, written once before the pointer is known
 *
 *  value block (on the root's node): the value's bytes, written once before it is published, then
 *  never changed until it is freed
 * </pre>
 *
 * <p><b>The algorithm: out of place, published by one compare-and-swap.</b> A write allocates a fresh
 * block on the root's node, and posts, in one doorbell batch on one queue pair (so in this order at the
 * target), a WRITE of the value into the block and a compare-and-swap of {@code current} from the
 * pointer this handle last saw to the new block. When that fails it returns the current pointer, and
 * the write tries once more from it. A second failure means another write replaced the pointer during
 * this call: this write is linearized just before that one (overwritten at once, read by nobody), and
 * its block, never published, is freed directly. The replaced block is retired through the
 * {@link Reclaimer}. A read, inside a guard, READs {@code current} and then the block it points to;
 * the guard keeps the block from being freed while its lease holds. So a block is only read while it is
 * immutable and no reader ever sees a partial value, whatever the NIC does with concurrent transfers:
 * the value is never written in place (the out-of-place rule of the architecture notes, and the
 * construction that ROMe, "Wait-free objects for RDMA", SPAA 2024, and SWARM build multi-word registers
 * on).
 *
 * <p><b>Torn pointers.</b> {@code current} changes only by compare-and-swap, but an RDMA READ racing one can
 * return it half old and half new on some devices (Soft-RoCE). Where the old and the new pointer differ in their
 * upper 32 bits (a node whose memory crosses a 4 GiB boundary), such a word names no bytes of a segment; a read
 * that meets one reads the pointer again by a fetch-and-add of 0 (an atomic read, never torn: one more NIC atomic
 * and round trip), and a pointer that still names no block is a corrupted register
 * ({@link CorruptedMemoryException}).
 *
 * <p><b>When a guard's lease runs out</b> (the reader stalled longer than the reclaimer's lease) the
 * block may have been freed and reused under the read, and the read starts over in a fresh guard. A
 * check of the block's header incarnation cannot replace that: the pointer carries no incarnation, so a
 * header read after the pointer cannot tell the published block from a reuse of the same address. A
 * read inside an outer guard of the caller whose lease ran out cannot renew it: a guard found invalid as soon
 * as the read starts over is such an outer guard, and the read throws {@link LeaseExpiredException}; the
 * caller restarts its operation, as {@link Guard} describes.
 *
 * <p><b>Progress and cost</b> (independent of the number of threads; {@code s} = value size):
 * <table>
 *   <caption>per call, worst case, besides the reclaimer's own work</caption>
 *   <tr><th>method</th><th>progress</th><th>RDMA operations</th><th>round trips</th></tr>
 *   <tr><td>{@link #write}</td><td>wait-free apart from the allocation (the allocator is lock-free, every call bounded or
 *       an exception)</td>
 *       <td>an allocation; 1 WRITE of {@code s} bytes, an 8-byte READ of the handles word and at most 2
 *       compare-and-swaps; a free of the new block when overwritten</td><td>2 besides the allocation (1 when uncontended)</td></tr>
 *   <tr><td>{@link #read}</td><td>wait-free while the thread's guard holds its lease</td>
 *       <td>2 READs ({@code 24 + s} bytes: the handles word, the identity word and {@code current}, then
 *       the value); CPU copies on the register's node</td><td>2 (0)</td></tr>
 * </table>
 * The reclaimer adds its costs ({@link io.remus.ds.reclaim.EpochReclaimer}: none for enter and exit on
 * a memory node and none for a retire inside a guard, plus passes amortized over many operations;
 * {@link io.remus.ds.reclaim.NeverReclaimer}: none). A read repeats (2 more READs) only after the
 * reading thread itself stalled past its lease: no other thread can make it repeat. A READ of the pointer that
 * came back torn adds the fetch-and-add that reads it again (above).
 *
 * <p><b>Linearizable</b> with respect to a sequential read/write register of byte strings: a write takes
 * effect at its successful compare-and-swap (or just before the write that overwrote it), a read when
 * it loads {@code current}.
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the root (with its identity in front) and the first
 * value block with the thread's allocator and writes both before anyone knows the pointer; others
 * {@link #attach} with {@link #ptr()}, which refuses a pointer to anything but a live register. Each handle needs its thread's own reclaimer, and all handles of a register must use
 * reclaimers of one kind (epoch-based ones share their announcements cluster-wide). The thread's
 * registered buffer is scratch ({@code s + 16} bytes from offset 0) during a call.
 *
 * <p><b>Closing and destroying.</b> Each handle is closed when its thread is done ({@link #close()});
 * {@link #destroy} marks the register destroyed, and its memory is freed when the last handle is closed (see
 * {@link StructureIdentity}). The other handles' {@link #read} learns of a destroy from the READ of
 * {@code current} it does anyway, a {@link #write} from an 8-byte READ of the handles word in the doorbell of its
 * compare-and-swap ({@link ClosedObjectException}).
 *
 * <p>One instance per compute thread, used by its owner, like the compute thread.
 */
public final class RemoteRegister extends AllocatingHandle {
    private static final long CURRENT = 0;
    private static final long SIZE = 8;
    /** Bytes of the root, after its handles and identity words. */
    public static final int ROOT_BYTES = 16;

    private final int size;
    private final long casResult;
    private final long handlesResult;
    private long seen;

    private RemoteRegister(ComputeThread thread, Reclaimer reclaimer, StructureIdentity identity, int size, long seen) {
        super(thread, reclaimer, identity, ROOT_BYTES);
        this.size = size;
        this.casResult = (size + 7L) & ~7L;
        this.handlesResult = casResult + 8;
        this.seen = seen;
    }

    /**
     * Allocates a register on memory node {@code nodeId} holding {@code initial}: two allocations (root
     * and value), the identity word (a CPU load and store on the thread's own node, else 1 READ and 1 WRITE)
     * and two WRITEs.
     *
     * @param thread    the creator's compute thread
     * @param reclaimer the creator's reclaimer (its thread's)
     * @param nodeId    a memory node
     * @param initial   the first value; its length is the register's value size
     * @return the creator's handle
     * @throws BadArgumentException when the value size is out of range
     */
    public static RemoteRegister create(ComputeThread thread, Reclaimer reclaimer, int nodeId, MemorySegment initial) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        Objects.requireNonNull(initial, "initial");
        int size = checkSize(thread, initial.byteSize());
        StructureIdentity identity = StructureIdentity.allocate(thread, StructureKind.REMOTE_REGISTER, ROOT_BYTES, nodeId,
                ClosedObjectException::new);
        long r = identity.ptr();
        long block = thread.allocator().allocate(size, nodeId);
        thread.write(block, initial);
        MemorySegment buf = thread.buffer();
        buf.set(ValueLayout.JAVA_LONG, CURRENT, block);
        buf.set(ValueLayout.JAVA_LONG, SIZE, size);
        thread.write(r, 0, ROOT_BYTES);
        return new RemoteRegister(thread, reclaimer, identity, size, block);
    }

    /**
     * {@link #create(ComputeThread, Reclaimer, int, MemorySegment)} with a byte array.
     *
     * @param thread    the creator's compute thread
     * @param reclaimer the creator's reclaimer (its thread's)
     * @param nodeId    a memory node
     * @param initial   the first value; its length is the register's value size
     * @return the creator's handle
     */
    public static RemoteRegister create(ComputeThread thread, Reclaimer reclaimer, int nodeId, byte[] initial) {
        return create(thread, reclaimer, nodeId, MemorySegment.ofArray(Objects.requireNonNull(initial, "initial")));
    }

    /**
     * A handle on a register another thread created: one READ of the root with the root block's header, the
     * handles word and the identity word in front, and one compare-and-swap of the handles word
     * ({@link StructureIdentity#attach}).
     *
     * @param thread    the caller's compute thread
     * @param reclaimer the caller's reclaimer (its thread's)
     * @param ptr       what {@link #ptr()} returned
     * @return the handle
     * @throws BadArgumentException    when the pointer is null or misaligned, or the size found there is
     *                                 not one this thread can move
     * @throws WrongStructureException when no register is there (another kind of structure, or none)
     * @throws ClosedObjectException   when the register there was destroyed
     */
    public static RemoteRegister attach(ComputeThread thread, Reclaimer reclaimer, long ptr) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        MemorySegment root = MemorySegment.ofArray(new long[ROOT_BYTES / 8]);
        StructureIdentity identity = attachRoot(thread, StructureKind.REMOTE_REGISTER, ptr, root,
                copy -> checkSize(thread, copy.get(ValueLayout.JAVA_LONG, SIZE)));
        int s = (int) root.get(ValueLayout.JAVA_LONG, SIZE);
        return new RemoteRegister(thread, reclaimer, identity, s, root.get(ValueLayout.JAVA_LONG, CURRENT));
    }

    private static int checkSize(ComputeThread thread, long size) {
        long max = Math.min(SizeClasses.MAX, thread.config().bufferSizePerThread() - 16L);
        if (size < 1 || size > max) {
            throw new BadArgumentException("a register value must be 1.." + max + " bytes for this thread's buffer, got " + size);
        }
        return (int) size;
    }

    /** {@return the value size in bytes} */
    public int size() {
        return size;
    }

    /**
     * Writes a new value, out of place (see the class for the algorithm and its cost). Wait-free
     * apart from the allocation: at most two compare-and-swaps of the root.
     *
     * @param value exactly {@link #size()} bytes
     * @throws BadArgumentException  when the value has another size
     * @throws ClosedObjectException when the register was destroyed (by this handle or, found in the READ of the
     *                               handles word in the doorbell of the compare-and-swap, by another)
     */
    public void write(MemorySegment value) {
        requireOpen(value, "value", size, "this register holds values of");
        try (Guard g = reclaimer.enter()) {
            long block = allocate();
            MemorySegment.copy(value, 0, thread.buffer(), 0, size);
            long current = RemotePtr.offset(ptr, CURRENT);
            long expected = seen;
            thread.batch().read(identity.headerAddress(), handlesResult, 8).write(block, 0, size)
                    .compareAndSwap(current, expected, block, casResult).execute();
            long old = thread.buffer().get(ValueLayout.JAVA_LONG, casResult);
            long handles = thread.buffer().get(ValueLayout.JAVA_LONG, handlesResult);
            if (old != expected && !identity.isLive(handles)) {
                free(block);
                identity.check(handles);
            }
            if (old != expected) {
                expected = old;
                old = thread.compareAndSwap(current, expected, block);
            }
            if (old == expected) {
                seen = block;
                reclaimer.retire(expected, size);
            } else {
                seen = old;
                free(block);
            }
            identity.check(handles);
        }
    }

    private long allocate() {
        return allocations.allocate(size, home);
    }

    private void free(long block) {
        allocations.deallocate(block, size);
    }

    /**
     * {@link #write(MemorySegment)} with a byte array.
     *
     * @param value exactly {@link #size()} bytes
     */
    public void write(byte[] value) {
        write(MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * Reads the value into {@code destination} (see the class for the cost). Wait-free while the
     * thread's guard holds its lease; never torn.
     *
     * @param destination exactly {@link #size()} bytes
     * @throws BadArgumentException  when the destination has another size
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out (the guard is
     *                               found invalid as soon as the read starts over)
     * @throws CorruptedMemoryException when the current pointer, read whole, names no block of a segment
     * @throws ClosedObjectException when the register was destroyed (by this handle or, found in the READ of
     *                               {@code current}, by another)
     */
    public void read(MemorySegment destination) {
        requireOpen(destination, "destination", size, "this register holds values of");
        long current = RemotePtr.offset(ptr, CURRENT);
        boolean again = false;
        while (true) {
            try (Guard g = reclaimer.enter()) {
                if (again) {
                    g.check();
                }
                long block = RemoteCounter.readFirstWord(thread, identity);
                if (!thread.isPublished(block, size)) {
                    block = pointerWhole(current);
                }
                thread.read(block, 0, size);
                if (g.valid()) {
                    seen = block;
                    MemorySegment.copy(thread.buffer(), 0, destination, 0, size);
                    return;
                }
            }
            again = true;
        }
    }

    /**
     * After a READ of {@code current} that named no block of a segment: the pointer READ half old and half new
     * (halves of two pointers that differ in their upper 32 bits), read again by a fetch-and-add of 0, an atomic
     * read that is never torn (1 NIC atomic, 1 round trip).
     *
     * @throws CorruptedMemoryException when the pointer read whole names no block either
     */
    private long pointerWhole(long current) {
        long block = thread.fetchAndAdd(current, 0);
        if (!thread.isPublished(block, size)) {
            throw new CorruptedMemoryException(current, block, "the current pointer of the register at "
                    + RemotePtr.toString(ptr) + " was read whole as " + RemotePtr.toString(block) + ", which names no "
                    + size + " bytes of a segment");
        }
        return block;
    }

    /**
     * {@link #read(MemorySegment)} into a new array.
     *
     * @return the value
     * @throws ClosedObjectException when the register was destroyed
     */
    public byte[] read() {
        byte[] value = new byte[size];
        read(MemorySegment.ofArray(value));
        return value;
    }

    /** The current value block, freed when the last handle of the destroyed register closes (one READ of {@code current}). */
    @Override
    void freeOutsideRoot() {
        thread.allocator().deallocate(thread.read(RemotePtr.offset(ptr, CURRENT)), size);
    }
}
