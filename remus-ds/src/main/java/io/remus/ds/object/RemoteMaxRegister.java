package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.DoorbellBatch;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * A wait-free max register (signed 64-bit values): {@link #writeMax(long)} raises the value to at
 * least its argument, {@link #read()} returns the largest value written (or the initial one).
 *
 * <pre>
 *  ptr - 16: the handles word, ptr - 8: the identity word ({@link StructureIdentity})
 *  ptr +  0: value        changed only by RDMA compare-and-swap
 *  ptr +  8: capacity c   written once, before the pointer is known
 *  ptr + 16: claims       RDMA fetch-and-add; thread i's slot is the i-th claim
 *  ptr + 24: slot 0 .. slot c-1, 8 bytes each: the last value its owner announced,
 *            changed only by its owner's RDMA compare-and-swap (Long.MIN_VALUE: none)
 * </pre>
 *
 * <p><b>The algorithm: announce and help.</b> A writer of {@code v} announces {@code v} in its slot and,
 * in the same doorbell batches, reads the value word and every slot (one 8-byte READ each, so that no
 * word is read torn). It then compare-and-swaps the value word from what it read to
 * {@code m = max(v, every announced value)} until the word holds at least {@code v}; a failed
 * compare-and-swap returns the word's newer, strictly larger value and is retried with it. An operation
 * whose batch read a slot after that slot's announcement landed writes at least the announced value. So
 * a writer's compare-and-swap fails only when an operation succeeded that read its slot before its
 * announcement: at most one per other thread (the operation that thread had in progress then; each
 * operation succeeds at most once), and one more whose success already lifted the word to at least
 * {@code v}. Hence at most {@code n} compare-and-swaps per call, with {@code n} the threads using the
 * register. This is the announce-and-help pattern of wait-free constructions (Herlihy), as ROMe
 * ("Wait-free objects for RDMA", SPAA 2024) applies it to RDMA costs: the help costs one batched
 * round trip, not one per thread.
 *
 * <p>Designs compared: a single word changed by a compare-and-swap loop costs 2 round trips when
 * uncontended but is only lock-free (a writer fails once per write of any other thread of a value
 * between what it read and its own, without bound in {@code n}); per-thread slots whose read takes the
 * maximum over a batched read of all slots are wait-free but NOT linearizable (a reader that reads slot
 * 1 (0), then sees slot 2 raised to 5 by a write that started after a write of 10 to slot 1 finished,
 * returns 5, though 10 was written before 5). The announce-and-help register keeps a one-word read
 * and pays one extra round trip per write for a bound in {@code n}.
 *
 * <p><b>Progress and cost</b> ({@code n} threads using it, {@code c} its capacity, {@code b} the
 * thread's {@code wrsPerBatch}):
 * <table>
 *   <caption>per call, worst case</caption>
 *   <tr><th>method</th><th>progress</th><th>RDMA operations</th><th>round trips</th></tr>
 *   <tr><td>{@link #writeMax}</td><td>wait-free</td><td>1 compare-and-swap (announce) + {@code c + 1}
 *       READs (the value's of 24 bytes) in {@code ceil((c + 2) / b)} doorbell batches + at most {@code n} compare-and-swaps;
 *       none when {@code v} is at most a value this handle already saw</td><td>{@code 1 + n}
 *       (2 without contention, 1 when the word already holds {@code v}, 0 for a known value)</td></tr>
 *   <tr><td>{@link #read}</td><td>wait-free</td><td>1 READ of 24 bytes: the handles word, the identity
 *       word and the value (a CPU copy on the register's node)</td><td>1 (0)</td></tr>
 * </table>
 *
 * <p><b>Linearizable</b> with respect to a sequential max register. The word only grows, and every value
 * it takes is the argument of a {@code writeMax} still in progress (a completed write left the word at
 * least at its value, so a compare-and-swap from below it fails). A {@code writeMax(v)} takes effect
 * when the word first reaches at least {@code v}, within its call (it returns only when it saw that), or
 * at its invocation when the word was there already; a read when the word is loaded.
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the register, with its identity in front, with the
 * thread's allocator, writes it whole before anyone knows the pointer, and claims slot 0; others
 * {@link #attach} with the pointer ({@link #ptr()}), each claiming the next slot; an attach refuses a pointer to
 * anything but a live max register. Slots are never given back: the capacity bounds the handles attached over
 * the register's life. The thread's registered buffer serves as scratch ({@code 8 (c + 4)} bytes from offset 0)
 * during a {@code writeMax} and a {@code read}.
 *
 * <p><b>Closing and destroying.</b> Each handle is closed when its thread is done ({@link #close()});
 * {@link #destroy} marks the register destroyed, and its block is freed when the last handle is closed (see
 * {@link StructureIdentity}). The other handles' {@link #read} and {@link #writeMax} learn of a destroy from the
 * READ of the value they do anyway, which starts at the handles word ({@link ClosedObjectException}); a
 * {@code writeMax}'s announcement, in the same doorbell, lands in the destroyed register, which nobody reads. A
 * {@code writeMax} of a value this handle already saw does no RDMA operation, and returns without looking.
 *
 * <p>One instance per compute thread, used by its owner, like the compute thread.
 */
public final class RemoteMaxRegister extends ObjectHandle {
    private static final long VALUE = 0;
    private static final long CAPACITY = 8;
    private static final long CLAIMS = 16;
    private static final long SLOTS = 24;
    private static final long NONE = Long.MIN_VALUE;
    private static final long ANNOUNCE_RESULT = 0;
    private static final long HEADER_READ = 8;
    private static final long VALUE_READ = HEADER_READ + StructureIdentity.PREFIX_BYTES;
    private static final long SLOT_READS = VALUE_READ + 8;

    private final int capacity;
    private final int slot;
    private final long[] handles;
    private long announced = NONE;
    private long known = NONE;

    private RemoteMaxRegister(ComputeThread thread, StructureIdentity identity, int capacity, int slot) {
        super(thread, identity, bytes(capacity));
        this.capacity = capacity;
        this.slot = slot;
        int batch = thread.config().wrsPerBatch();
        this.handles = new long[(capacity + 2 + batch - 1) / batch];
    }

    /**
     * Bytes of the root of a register of {@code capacity} slots (its block holds
     * {@link StructureIdentity#BYTES} more: the handles and identity words).
     *
     * @param capacity the slot count
     * @return its root's size
     */
    public static long bytes(int capacity) {
        return SLOTS + 8L * capacity;
    }

    /**
     * Allocates a register on memory node {@code nodeId} holding {@code initial}, with slots for
     * {@code capacity} handles, and claims the first: the allocation, the identity word (a CPU load and store
     * on the thread's own node, else 1 READ and 1 WRITE), one WRITE of the root, then the attach (1 READ,
     * 1 compare-and-swap, 1 fetch-and-add) and one fetch-and-add of the handles word (the allocation's handle,
     * given up for the attach's).
     *
     * @param thread   the creator's compute thread
     * @param nodeId   a memory node
     * @param capacity the most handles ever attached, 1 or more: each takes a slot for good, the creator's
     *                 included and a closed one too, so count every attach over the register's life; within what
     *                 the thread's buffer and in-flight operations allow (see {@link #attach})
     * @param initial  the first value
     * @return the creator's handle
     * @throws BadArgumentException when the capacity is out of range
     */
    public static RemoteMaxRegister create(ComputeThread thread, int nodeId, int capacity, long initial) {
        Objects.requireNonNull(thread, "thread");
        checkCapacity(thread, capacity);
        long bytes = bytes(capacity);
        StructureIdentity identity = StructureIdentity.allocate(thread, StructureKind.REMOTE_MAX_REGISTER, bytes, nodeId,
                ClosedObjectException::new);
        long p = identity.ptr();
        MemorySegment buf = thread.buffer();
        buf.set(ValueLayout.JAVA_LONG, VALUE, initial);
        buf.set(ValueLayout.JAVA_LONG, CAPACITY, capacity);
        buf.set(ValueLayout.JAVA_LONG, CLAIMS, 0);
        for (int i = 0; i < capacity; i++) {
            buf.set(ValueLayout.JAVA_LONG, SLOTS + 8L * i, NONE);
        }
        thread.write(p, 0, (int) bytes);
        RemoteMaxRegister handle = attach(thread, p);
        identity.close(thread, bytes, () -> { });
        return handle;
    }

    /**
     * A handle on a register, claiming the next slot: one READ (the root block's header, the handles and
     * identity words, the value and the capacity), one compare-and-swap of the handles word
     * ({@link StructureIdentity#attach}) and one fetch-and-add of the claims.
     *
     * @param thread the caller's compute thread
     * @param ptr    what {@link #ptr()} returned
     * @return the handle
     * @throws BadArgumentException         when the pointer is null or misaligned, or the capacity
     *                                      stored there does not suit this thread's configuration
     * @throws WrongStructureException      when no max register is there (another kind of structure, or none)
     * @throws ClosedObjectException        when the register there was destroyed
     * @throws AllocationExhaustedException when every slot is claimed
     */
    public static RemoteMaxRegister attach(ComputeThread thread, long ptr) {
        Objects.requireNonNull(thread, "thread");
        MemorySegment root = MemorySegment.ofArray(new long[2]);
        StructureIdentity identity = attachRoot(thread, StructureKind.REMOTE_MAX_REGISTER, ptr, root, copy -> {
            long capacity = copy.get(ValueLayout.JAVA_LONG, CAPACITY);
            if (capacity < 1 || capacity > Integer.MAX_VALUE) {
                throw new BadArgumentException(RemotePtr.toString(ptr) + " holds capacity " + capacity
                        + ": not a max register");
            }
            checkCapacity(thread, (int) capacity);
        });
        long capacity = root.get(ValueLayout.JAVA_LONG, CAPACITY);
        int slot = claimSlot(thread, identity, RemotePtr.offset(ptr, CLAIMS), capacity, "slots of the RemoteMaxRegister",
                "capacity", () -> identity.close(thread, bytes((int) capacity), () -> { }));
        return new RemoteMaxRegister(thread, identity, (int) capacity, slot);
    }

    private static void checkCapacity(ComputeThread thread, int capacity) {
        int batch = thread.config().wrsPerBatch();
        long batches = ((long) capacity + 2 + batch - 1) / batch;
        if (capacity < 1 || SLOT_READS + 8L * capacity > thread.config().bufferSizePerThread()
                || batches > thread.config().opsInFlightPerThread()
                || StructureIdentity.blockBytes(bytes(capacity)) > SizeClasses.MAX) {
            throw new BadArgumentException("max register capacity must be 1.." + maxCapacity(thread) + " for this thread's"
                    + " buffer and batches, got " + capacity);
        }
    }

    private static long maxCapacity(ComputeThread thread) {
        long byBuffer = (thread.config().bufferSizePerThread() - SLOT_READS) / 8;
        long byBatches = (long) thread.config().opsInFlightPerThread() * thread.config().wrsPerBatch() - 2;
        long byBlock = (SizeClasses.MAX - StructureIdentity.blockBytes(SLOTS)) / 8;
        return Math.min(byBlock, Math.min(byBuffer, byBatches));
    }

    /** {@return the slot this handle claimed} */
    public int slot() {
        return slot;
    }

    /** {@return how many slots the register has} */
    public int capacity() {
        return capacity;
    }

    /**
     * Raises the register to at least {@code value}. Wait-free; see the class for the bound
     * ({@code 1 + n} round trips, at most {@code n} compare-and-swaps on the value).
     *
     * @param value the value to write
     * @throws ClosedObjectException when the register was destroyed (by this handle or, found in the READ of
     *                               the value, by another)
     */
    public void writeMax(long value) {
        identity.requireOpen();
        if (value <= known) {
            thread.checkOwnerThread();
            return;
        }
        long valueWord = RemotePtr.offset(ptr, VALUE);
        long slotWord = RemotePtr.offset(ptr, SLOTS + 8L * slot);
        DoorbellBatch batch = thread.batch();
        int perBatch = thread.config().wrsPerBatch();
        int posted = 0;
        batch.compareAndSwap(slotWord, announced, value, ANNOUNCE_RESULT);
        batch.read(identity.headerAddress(), HEADER_READ, StructureIdentity.PREFIX_BYTES + 8);
        for (int i = 0; i < capacity; i++) {
            if (batch.size() == perBatch) {
                handles[posted++] = batch.post();
            }
            batch.read(RemotePtr.offset(ptr, SLOTS + 8L * i), SLOT_READS + 8L * i, 8);
        }
        handles[posted++] = batch.post();
        for (int i = 0; i < posted; i++) {
            thread.await(handles[i]);
        }
        MemorySegment buf = thread.buffer();
        identity.check(buf.get(ValueLayout.JAVA_LONG, HEADER_READ));
        long was = buf.get(ValueLayout.JAVA_LONG, ANNOUNCE_RESULT);
        if (was != announced) {
            throw new CorruptedMemoryException(slotWord, was, "slot " + slot + " of the max register at " + RemotePtr.toString(ptr)
                    + " held " + was + ", not the " + announced + " its owner announced: another handle uses the slot");
        }
        announced = value;
        long target = value;
        for (int i = 0; i < capacity; i++) {
            target = Math.max(target, buf.get(ValueLayout.JAVA_LONG, SLOT_READS + 8L * i));
        }
        long current = buf.get(ValueLayout.JAVA_LONG, VALUE_READ);
        while (current < value) {
            long old = thread.compareAndSwap(valueWord, current, target);
            current = old == current ? target : old;
        }
        known = Math.max(known, current);
    }

    /**
     * The register's value: one READ of the value with the root's handles word and identity word in front
     * (a CPU copy on its node), one round trip, wait-free.
     *
     * @return the largest value written, or the initial value
     * @throws ClosedObjectException when the register was destroyed (by this handle or, found in the READ, by
     *                               another)
     */
    public long read() {
        identity.requireOpen();
        long v = RemoteCounter.readFirstWord(thread, identity);
        known = Math.max(known, v);
        return v;
    }
}
