package io.remus.ds.queue;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.time.ThreadTime;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Objects;

/**
 * What a handle on each MPMC queue ({@link MpmcBoundedQueue}, {@link MpmcScqQueue}, {@link MpmcCrashTolerantQueue})
 * does the same way: it is open or closed, and it closes and destroys through the root's {@link StructureIdentity}.
 * Once the handle is closed or destroyed its queue, every call but a close throws {@link ClosedQueueException}.
 * Used by the handle's owner only, like its compute thread.
 */
abstract class MpmcQueueHandle implements AutoCloseable {
    /**
     * The cell index of a ring entry that holds no cell ({@link MpmcScqQueue}, {@link MpmcCrashTolerantQueue}: a
     * cell index is the entry's low {@link #INDEX_BITS} bits, and this value is reserved).
     */
    static final int NONE = 0xFFFF;
    /** Bits of a ring entry's cell index, the entry's low bits. */
    static final int INDEX_BITS = 16;

    /** The handle's compute thread. */
    final ComputeThread thread;
    /** The handle's identity of the queue's root. */
    final StructureIdentity identity;
    /** The queue's root. */
    final long ptr;
    /** The most values the queue holds, as created. */
    final int capacity;
    private final long rootBytes;
    /** Receives a READ of the handles word, the identity word and the header's words up to the one read. */
    private final MemorySegment rootWords;

    /**
     * @param thread      the handle's compute thread
     * @param identity    the handle's identity of the queue's root
     * @param capacity    the most values the queue holds, as created
     * @param rootBytes   bytes of the queue's root, as given to {@link StructureIdentity#allocate}
     * @param headerWords how many of the root's first words {@link #readRootWord} reads at the most
     */
    MpmcQueueHandle(ComputeThread thread, StructureIdentity identity, int capacity, long rootBytes, int headerWords) {
        this.thread = thread;
        this.identity = identity;
        this.ptr = identity.ptr();
        this.capacity = capacity;
        this.rootBytes = rootBytes;
        this.rootWords = MemorySegment.ofArray(new long[2 + headerWords]);
    }

    /** {@return the cell index of a ring entry: its low {@link #INDEX_BITS} bits, {@link #NONE} for no cell} */
    static int index(long entry) {
        return (int) (entry & NONE);
    }

    /**
     * Checks a create's arguments, in this order: the thread given ({@link NullPointerException}), the capacity
     * {@code 1..max} ({@link BadArgumentException} naming it).
     */
    static void checkCreate(ComputeThread thread, int capacity, int max) {
        Objects.requireNonNull(thread, "thread");
        if (capacity < 1 || capacity > max) {
            throw new BadArgumentException("capacity must be 1.." + max + ", got " + capacity);
        }
    }

    /**
     * A new root of {@code bytes} for a queue of {@code kind} on the caller's node ({@link StructureIdentity#allocate}),
     * zeroed by CPU stores but for its first word, the {@code capacity}, before anyone else can know the block: the
     * creator's identity of it.
     */
    static StructureIdentity allocateRoot(ComputeThread thread, StructureKind kind, long bytes, int capacity) {
        StructureIdentity identity = StructureIdentity.allocate(thread, kind, bytes, thread.nodeId(),
                ClosedQueueException::new);
        MemorySegment block = thread.localSegment(identity.ptr(), bytes);
        block.fill((byte) 0);
        block.set(ValueLayout.JAVA_LONG, 0, capacity);
        return identity;
    }

    /**
     * Reads the root's word at {@code word} (a header word such as a tail or a head): one READ from the handles
     * word through that word, whose handles word shows whether the queue was destroyed.
     *
     * @throws ClosedQueueException when the queue was destroyed
     */
    final long readRootWord(long word) {
        return identity.readRootWord(thread, word - ptr, rootWords);
    }

    /**
     * A call's first READ: {@code length} bytes at {@code at} into the thread's buffer at 0 and, in the same
     * doorbell (one round trip), the handles word into the buffer at {@code length}; on the queue's own node, CPU
     * loads of the two in that order. Checks the header before anything uses the bytes.
     *
     * @throws ClosedQueueException when the queue was destroyed
     */
    final void readChecked(long at, int length) {
        identity.readWithHeader(thread, at, 0, length, length);
    }

    /**
     * The word at {@code at}: with {@code first}, a call's first READ, which carries the handles word's
     * ({@link #readChecked}); else one plain READ (on the queue's own node, a CPU load).
     *
     * @throws ClosedQueueException when {@code first} and the queue was destroyed
     */
    final long readWord(long at, boolean first) {
        if (first) {
            readChecked(at, 8);
            return thread.buffer().get(ValueLayout.JAVA_LONG, 0);
        }
        return thread.read(at);
    }

    /** Throws {@link ClosedQueueException} when the handle is closed or destroyed its queue. */
    final void requireOpen() {
        identity.requireOpen();
    }

    /**
     * The deadline of a call with {@code patience} (at most a year) from now, once the patience is given, the
     * handle open ({@link ClosedQueueException}) and the patience not negative ({@link BadArgumentException}).
     */
    final long deadline(Duration patience) {
        Objects.requireNonNull(patience, "patience");
        requireOpen();
        if (patience.isNegative()) {
            throw new BadArgumentException("patience must not be negative, got " + patience);
        }
        long now = ThreadTime.nanoTime();
        long nanos = patience.compareTo(Duration.ofDays(365)) > 0 ? Duration.ofDays(365).toNanos() : patience.toNanos();
        return now + nanos;
    }

    /** {@return the queue, for its class's {@code attach}} */
    public final long ptr() {
        return ptr;
    }

    /**
     * {@return the most words the queue holds, as created; an {@link MpmcScqQueue} holds one less per cell a dead
     *          caller kept}
     */
    public final int capacity() {
        return capacity;
    }

    /**
     * Ends this handle: later calls throw {@link ClosedQueueException}; idempotent. Drops the handle from the
     * queue's root (one fetch-and-add, {@link StructureIdentity#close}); when the queue was destroyed and this was
     * its last open handle, frees it (the allocator's costs).
     */
    @Override
    public final void close() {
        identity.close(thread, rootBytes, () -> { });
    }

    /**
     * Destroys the queue and closes this handle: one compare-and-swap of the root's handles word marks it destroyed
     * ({@link StructureIdentity#destroy}); when no other handle is open it is freed here (the allocator's costs:
     * {@link io.remus.core.RemoteAllocator#deallocate(long, long, long)}), else by the last other handle to
     * {@link #close()}, so no handle ever touches freed memory. Of two destroys of one queue, in any handles and
     * processes, exactly one marks it; the other closes its handle and throws. Every call of any handle that starts
     * after it returned throws {@link ClosedQueueException} (the first READ of each call sees the handles word); a
     * call concurrent with it completes on the queue's memory, intact, before or after it.
     *
     * @throws ClosedQueueException after {@link #close()} or {@link #destroy()}, or when another handle destroyed
     *                              the queue first (this handle is closed after)
     */
    public final void destroy() {
        identity.destroy(thread, rootBytes, () -> { });
    }
}
