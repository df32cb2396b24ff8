package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * A universal construction: any {@link SequentialObject} as a linearizable, wait-free shared object
 * over one-sided RDMA, for up to {@code c} handles (its capacity).
 *
 * <pre>
 *  root (on the object's node):
 *  -24              the root block's allocator header
 *  -16              the handles word ({@link StructureIdentity})
 *  -8               the identity word
 *  +0               state      pointer to the current state block, changed only by RDMA compare-and-swap
 *  +8               capacity c written once, before the root is known
 *  +16              claims     RDMA fetch-and-add; handle i owns announce slot i
 *  +24              bytes s    the sequential object's state size, written once
 *  +32              seq[0..c-1], 8 bytes each: the sequence number of slot i's latest announced
 *                   operation (0: none yet), changed only by its owner's RDMA compare-and-swap
 *  +32 + 8c         record[0..c-1][0..1], 16 bytes each: (operation, argument) of slot i's operation
 *                   number k in record[i][k mod 2], written by its owner before seq[i] becomes k
 *
 *  state block (immutable once published; B = 8 + 24c + s rounded up to 8 bytes):
 *  +0               self        the block's own pointer, checked against the pointer it was read by
 *  +8 + 24i         applied[i]  the sequence number of slot i's last operation applied in this state
 *  +16 + 24i        status[i]   that operation's response
 *  +24 + 24i        value[i]
 *  +8 + 24c         the serialized sequential state
 * </pre>
 *
 * <p><b>The algorithm</b> (Herlihy, "Wait-free synchronization", 1991, with immutable out-of-place state
 * and batched reads of the announcements, as ROMe, "Wait-free objects for RDMA", SPAA 2024, adapts it to
 * RDMA costs). A handle's {@code k}-th operation:
 * <ol>
 *   <li><b>Announce</b> (one doorbell batch, one round trip): WRITE (operation, argument) into
 *       {@code record[i][k mod 2]}, compare-and-swap {@code seq[i]} from {@code k - 1} to {@code k}, and,
 *       fenced behind it, READ the state pointer {@code p} (with the root's handles word and the identity
 *       word in front of it, so that a destroyed object is found).</li>
 *   <li><b>Read</b> (one batch): READ the block at {@code p}, READ all {@code seq} words, and, fenced
 *       behind that READ, all records. When the block's {@code applied[i]} is {@code k}, a helper already
 *       applied the operation: return its {@code status[i]} and {@code value[i]}.</li>
 *   <li><b>Help</b> (local): from the block's state, apply in slot order every announced operation that
 *       is the next one of its slot ({@code seq[j] == applied[j] + 1}), the own one included, recording
 *       each response and sequence number in the new block's slot.</li>
 *   <li><b>Publish</b> (one batch): WRITE the new block into a fresh block (allocated once and kept as a
 *       spare when not published) and compare-and-swap the state pointer from {@code p} to it. On success
 *       retire {@code p} through the {@link Reclaimer} and return the own response; on failure the
 *       compare-and-swap returned the current pointer: go to step 2 with it.</li>
 * </ol>
 * The sequence numbers make each operation take effect exactly once: a helper applies slot {@code j}'s
 * operation {@code k} only to a state where {@code applied[j] == k - 1}, and every state descends from
 * its predecessor, so {@code applied[j]} passes through each value once along the chain of published
 * states. A slot that changes while a helper reads it cannot make it apply a wrong operation: a torn
 * READ of {@code seq[j]} (half {@code k - 1}, half {@code k}) equals {@code k} only when it is {@code k};
 * the records are READ fenced behind the {@code seq} words, and {@code record[j][k mod 2]} is written
 * before {@code seq[j]} becomes {@code k} and rewritten (for operation {@code k + 2}) only after a state
 * with {@code applied[j] >= k + 1} was published, that is after {@code p} was replaced, so that the
 * helper's compare-and-swap fails and its block is never published.
 *
 * <p><b>Torn pointer reads.</b> The state pointer changes only by compare-and-swap, but an RDMA READ of
 * it on Soft-RoCE can return a word stored meanwhile half old and half new. A state block starts with its
 * own pointer: a block whose {@code self} word is not the pointer it was read by was read through a torn
 * pointer, and so was a pointer that names no bytes of a segment (the halves of two pointers that differ in
 * their upper 32 bits), which is not followed ({@link ComputeThread#isPublished}); the pointer is read again by a fetch-and-add of 0, an atomic read that is never torn (one
 * more NIC atomic and round trip, outside the bound below, which counts pointers read whole; the pointers
 * that failed compare-and-swaps return are atomic too). A block reached by a pointer read whole whose
 * {@code self} word is not that pointer is a corrupted object: {@link CorruptedMemoryException}.
 *
 * <p><b>Bound: at most 2 failed compare-and-swaps.</b> Let the announcement complete at time {@code a};
 * step 1 reads {@code p1} after {@code a}. If the first compare-and-swap fails, another thread replaced
 * {@code p1} by {@code p2} after {@code a}. If the second fails too, a thread replaced {@code p2} by
 * {@code p3}; it read {@code p2}'s block, hence the announcements, after {@code p2} was published, so
 * after {@code a}: it saw {@code seq[i] == k} and applied the operation. The block read next (the pointer
 * the failed compare-and-swap returned, {@code p3} or a descendant) holds the response. A frozen or
 * crashed thread delays nobody: its announced operation is applied by the next successful publisher.
 *
 * <p><b>Progress and cost</b> per {@link #apply} ({@code c} the capacity, {@code n <= c} the handles in
 * use, {@code B = 8 + 24c + s} bytes the state block), whatever the other threads do:
 * <table>
 *   <caption>per call, worst case, besides the allocator's and the reclaimer's own work</caption>
 *   <tr><th>method</th><th>progress</th><th>RDMA operations</th><th>round trips</th></tr>
 *   <tr><td>{@link #apply}</td><td>wait-free (bounded independently of {@code n}); lock-free when the sequential step throws (see below)</td>
 *       <td>announce: 1 WRITE (16 bytes), 1 compare-and-swap, 1 READ (24 bytes);
 *       at most 3 reads of the state: 3 READs each ({@code B + 8c + 32c} bytes);
 *       at most 2 publishes: 1 WRITE ({@code B} bytes) and 1 compare-and-swap each;
 *       so at most {@code 3 + 9 + 4 = 16} operations, {@code 24 + 3 (B + 40c)} bytes read and
 *       {@code 16 + 2B} bytes written;
 *       at most 1 allocation (none while a spare is kept)</td>
 *       <td>at most {@code 1 + 3 + 2 = 6} (3 uncontended; 2 when already helped)</td></tr>
 *   <tr><td>{@link #read}</td><td>wait-free while the thread's guard holds its lease</td>
 *       <td>2 READs ({@code 24 + B} bytes: the root's handles word, the identity word and the state
 *       pointer, then the state block)</td><td>2</td></tr>
 * </table>
 * The bound holds as long as the calling thread's own guard keeps its lease (see below). Reads and
 * round trips to the object's node are network operations from every node, the object's own included
 * (batches use the loopback queue pair).
 *
 * <p><b>Linearizable</b> with respect to the sequential object: the operations applied by one published
 * state were all announced and none had returned, so they take effect at its compare-and-swap, in slot
 * order; a {@link #read} takes effect when it loads the state pointer.
 *
 * <p><b>Reclamation.</b> A replaced state block is retired through the thread's reclaimer; every call runs
 * inside a guard, so the blocks it reads stay unchanged and the pointer it compares cannot come back
 * (no ABA) while the guard's lease holds. A thread that stalled past its lease starts the attempt over
 * from the pointer in a fresh guard (the bound counts attempts of a thread whose lease holds).
 *
 * <p><b>Failures.</b> A call that throws after its announcement (a remote operation failed, or an outer
 * guard's lease ran out) leaves the operation announced: another thread may still apply it, exactly
 * once. The handle's next call first completes it (steps 2 to 4, its response dropped), then announces
 * its own operation; that call's bound is then twice the one above.
 *
 * <p><b>A sequential step that throws.</b> When {@link SequentialObject#apply} throws (a
 * {@link RuntimeException}) for an announced operation, a helper leaves that operation announced and applies
 * the others; only the operation's own handle completes it, by publishing a state in which it took no effect
 * (the state as it was before it, with the others' operations of that step applied) and its slot records it
 * as failed. That call then throws {@link SequentialOperationException} with what the step threw as its
 * cause, and every later call, on every handle, works as before. Such a call is lock-free rather than
 * wait-free: no helper completes it, so its owner's compare-and-swap can fail as often as others publish.
 * The other calls keep the bound above. An operation whose step throws and whose thread stopped for good
 * stays announced: every helper calls the step for it again, and skips it again.
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the root (with its identity in front) and the first
 * state block and writes both before the root is known; others {@link #attach} with {@link #ptr()}, each
 * claiming the next announce slot (slots are never given back); an attach refuses a pointer to anything but a
 * live object of its kind ({@link WaitFreeQueue} and {@link WaitFreeStack} roots are kinds of their own). All
 * handles of an object use reclaimers of one kind. The thread's registered buffer is scratch
 * ({@link #bufferBytes} bytes from offset 0) during a call.
 *
 * <p><b>Destroying.</b> {@link #destroy} frees the object once no thread uses it and closes its handle. Every
 * call of the other handles reads the state pointer together with the root's handles word and learns of the
 * destroy there ({@link ClosedObjectException}); an {@link #apply} announces (a WRITE of its record and a
 * compare-and-swap of its sequence word, into the root) before that READ, so no handle may call it after the
 * object was destroyed: those words may belong to another structure by then.
 *
 * <p>One instance per compute thread, used by its owner, like the compute thread.
 *
 * @param <S> the sequential object's state type
 */
public final class WaitFreeObject<S> extends AllocatingHandle {
    private static final long STATE = 0;
    private static final long CAPACITY = 8;
    private static final long CLAIMS = 16;
    private static final long BYTES = 24;
    private static final long SEQS = 32;
    private static final int SELF = 0;
    private static final int SLOTS = 8;
    private static final int SLOT_BYTES = 24;
    private static final int RECORD_BYTES = 16;
    /** Set in {@code applied[i]} beside the sequence number of an operation whose sequential step threw. */
    private static final long FAILED = 1L << 62;

    private static final long BUF_RECORD = 0;
    private static final long BUF_ANNOUNCED = 16;
    /** The root's handles word, the identity word and the state pointer, read together. */
    private static final long BUF_HEADER = 24;
    private static final long BUF_POINTER = BUF_HEADER + StructureIdentity.PREFIX_BYTES;
    private static final long BUF_PUBLISHED = BUF_POINTER + 8;
    private static final long BUF_SEQS = 64;

    /** Which announced operations a thread applies: only {@link #SEQUENCED} is the construction. */
    enum Helping {
        /** Every slot's next operation, by sequence number: the construction. */
        SEQUENCED,
        /** Only the own operation: linearizable but only lock-free (no bound on failed compare-and-swaps). */
        OWN_ONLY,
        /** Every slot's latest record, without comparing sequence numbers: applies operations twice. */
        UNSEQUENCED
    }

    private final SequentialObject<S> object;
    private final Helping helping;
    private final int capacity;
    private final int slot;
    private final int stateBytes;
    private final int blockBytes;
    private final long bufRecords;
    private final long bufOld;
    private final long bufNew;
    private long sequence;
    private boolean pending;
    private long spare = RemotePtr.NULL;
    private long status;
    private RuntimeException failure;
    private long failedSequence;

    private WaitFreeObject(ComputeThread thread, Reclaimer reclaimer, SequentialObject<S> object, Helping helping,
                           StructureIdentity identity, int capacity, int slot, long sequence) {
        super(thread, reclaimer, identity, rootBytes(capacity));
        this.object = object;
        this.helping = helping;
        this.capacity = capacity;
        this.slot = slot;
        this.stateBytes = object.stateBytes();
        this.blockBytes = blockBytes(capacity, stateBytes);
        this.bufRecords = BUF_SEQS + 8L * capacity;
        this.bufOld = align64(bufRecords + 2L * RECORD_BYTES * capacity);
        this.bufNew = bufOld + blockBytes;
        this.sequence = sequence;
    }

    /** {@return where slot {@code i}'s words start in the state block at {@code block} (slot {@code c}: the state)} */
    private long slotAt(long block, int i) {
        return block + SLOTS + SLOT_BYTES * (long) i;
    }

    private static long align64(long v) {
        return (v + 63) & ~63L;
    }

    private static int blockBytes(int capacity, int stateBytes) {
        return SLOTS + SLOT_BYTES * capacity + ((stateBytes + 7) & ~7);
    }

    private static long rootBytes(int capacity) {
        return SEQS + (8L + 2L * RECORD_BYTES) * capacity;
    }

    /**
     * The scratch bytes of the thread's buffer a handle uses during a call.
     *
     * @param capacity   the object's capacity
     * @param stateBytes the sequential object's state size
     * @return the byte count, from offset 0
     */
    public static long bufferBytes(int capacity, int stateBytes) {
        long records = BUF_SEQS + 8L * capacity;
        return align64(records + 2L * RECORD_BYTES * capacity) + 2L * blockBytes(capacity, stateBytes);
    }

    /**
     * Allocates an object on memory node {@code nodeId} in the sequential object's initial state, with
     * {@code capacity} announce slots, and claims the first: two allocations, the identity word (a CPU load
     * and store on the thread's own node, else 1 READ and 1 WRITE), two WRITEs, one READ and one
     * fetch-and-add (the attach).
     *
     * @param thread    the creator's compute thread
     * @param reclaimer the creator's reclaimer (its thread's)
     * @param nodeId    a memory node
     * @param capacity  the most handles ever attached, 1 or more: each takes an announce slot for good, the
     *                  creator's included and a closed one too, so count every attach over the object's life
     * @param object    the sequential object
     * @param <S>       its state type
     * @return the creator's handle
     * @throws BadArgumentException when the capacity or state size do not fit the thread's buffer or an
     *                              allocation
     */
    public static <S> WaitFreeObject<S> create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int capacity,
                                               SequentialObject<S> object) {
        return create(thread, reclaimer, nodeId, capacity, object, Helping.SEQUENCED);
    }

    static <S> WaitFreeObject<S> create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int capacity,
                                        SequentialObject<S> object, Helping helping) {
        return create(thread, reclaimer, nodeId, capacity, object, StructureKind.WAIT_FREE_OBJECT, helping);
    }

    /** {@link #create} of an object whose root names {@code kind} (a {@link WaitFreeQueue}'s, a {@link WaitFreeStack}'s). */
    static <S> WaitFreeObject<S> create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int capacity,
                                        SequentialObject<S> object, StructureKind kind, Helping helping) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        Objects.requireNonNull(object, "object");
        check(thread, capacity, object.stateBytes());
        int block = blockBytes(capacity, object.stateBytes());
        long rootBytes = rootBytes(capacity);
        StructureIdentity identity = StructureIdentity.allocate(thread, kind, rootBytes, nodeId, ClosedObjectException::new);
        long r = identity.ptr();
        long first = thread.allocator().allocate(block, nodeId);
        MemorySegment buf = thread.buffer();
        buf.asSlice(0, block).fill((byte) 0);
        buf.set(ValueLayout.JAVA_LONG, SELF, first);
        object.store(object.initialState(), buf.asSlice(SLOTS + SLOT_BYTES * (long) capacity, object.stateBytes()));
        thread.write(first, 0, block);
        buf.asSlice(0, rootBytes).fill((byte) 0);
        buf.set(ValueLayout.JAVA_LONG, STATE, first);
        buf.set(ValueLayout.JAVA_LONG, CAPACITY, capacity);
        buf.set(ValueLayout.JAVA_LONG, BYTES, object.stateBytes());
        thread.write(r, 0, (int) rootBytes);
        WaitFreeObject<S> handle = attach(thread, reclaimer, r, kind, bytes -> object, helping);
        identity.close(thread, rootBytes, () -> { });
        return handle;
    }

    /**
     * A handle on an object another thread created, claiming the next announce slot: one READ (the root
     * block's header, the identity word and the root's first 32 bytes) and one fetch-and-add.
     *
     * @param thread    the caller's compute thread
     * @param reclaimer the caller's reclaimer (its thread's)
     * @param ptr       what {@link #ptr()} returned
     * @param object    the same sequential object the creator used
     * @param <S>       its state type
     * @return the handle
     * @throws BadArgumentException         when the pointer is null or misaligned, or the root holds
     *                                      another state size or a capacity this thread cannot serve
     * @throws WrongStructureException      when no wait-free object is there (another kind of structure, a
     *                                      {@link WaitFreeQueue} or {@link WaitFreeStack} included, or none)
     * @throws ClosedObjectException        when the object there was destroyed
     * @throws AllocationExhaustedException when every slot is claimed
     */
    public static <S> WaitFreeObject<S> attach(ComputeThread thread, Reclaimer reclaimer, long ptr,
                                               SequentialObject<S> object) {
        return attach(thread, reclaimer, ptr, object, Helping.SEQUENCED);
    }

    static <S> WaitFreeObject<S> attach(ComputeThread thread, Reclaimer reclaimer, long ptr, SequentialObject<S> object,
                                        Helping helping) {
        Objects.requireNonNull(object, "object");
        return attach(thread, reclaimer, ptr, StructureKind.WAIT_FREE_OBJECT, bytes -> object, helping);
    }

    /**
     * {@link #attach} of an object whose root names {@code kind}, with the sequential object made from the
     * state size the root records ({@code objectOf}, called once): one READ and one fetch-and-add.
     */
    static <S> WaitFreeObject<S> attach(ComputeThread thread, Reclaimer reclaimer, long ptr, StructureKind kind,
                                        IntFunction<SequentialObject<S>> objectOf, Helping helping) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        MemorySegment head = MemorySegment.ofArray(new long[(int) (SEQS / 8)]);
        List<SequentialObject<S>> made = new ArrayList<>(1);
        StructureIdentity identity = ObjectHandle.attachRoot(thread, kind, ptr, head, copy -> {
            long capacity = copy.get(ValueLayout.JAVA_LONG, CAPACITY);
            long bytes = requireStateBytes(copy.get(ValueLayout.JAVA_LONG, BYTES), ptr);
            if (capacity < 1 || capacity > Integer.MAX_VALUE) {
                throw new BadArgumentException(RemotePtr.toString(ptr) + " holds capacity " + capacity
                        + ": not a wait-free object");
            }
            SequentialObject<S> object = Objects.requireNonNull(objectOf.apply((int) bytes), "object");
            if (bytes != object.stateBytes()) {
                throw new BadArgumentException("the wait-free object at " + RemotePtr.toString(ptr) + " holds states of "
                        + bytes + " bytes, the sequential object given has " + object.stateBytes());
            }
            check(thread, (int) capacity, object.stateBytes());
            made.add(object);
        });
        long capacity = head.get(ValueLayout.JAVA_LONG, CAPACITY);
        SequentialObject<S> object = made.get(0);
        int slot = ObjectHandle.claimSlot(thread, identity, RemotePtr.offset(ptr, CLAIMS), capacity,
                "announce slots of the " + kind.typeName(), kind == StructureKind.WAIT_FREE_OBJECT ? "capacity" : "handles",
                () -> new WaitFreeObject<>(thread, reclaimer, object, helping, identity, (int) capacity, 0, 0).close());
        return new WaitFreeObject<>(thread, reclaimer, object, helping, identity, (int) capacity, slot, 0);
    }

    private static long requireStateBytes(long bytes, long ptr) {
        if (bytes < 1 || bytes > SizeClasses.MAX) {
            throw new BadArgumentException(RemotePtr.toString(ptr) + " holds state size " + bytes + ": not a wait-free object");
        }
        return bytes;
    }

    /**
     * The state size an object's root records, for a handle whose sequential object is sized from it: one
     * READ (the root's handles word, the identity word and the root's first 32 bytes).
     *
     * @param thread the caller's compute thread
     * @param ptr    what {@link #ptr()} returned
     * @return the state size in bytes
     * @throws BadArgumentException    when the pointer is null or misaligned, or the size is out of range
     * @throws WrongStructureException when no wait-free object is there (another kind of structure, a
     *                                 {@link WaitFreeQueue} or {@link WaitFreeStack} included, or none)
     * @throws ClosedObjectException   when the object there was destroyed
     */
    public static int stateBytes(ComputeThread thread, long ptr) {
        Objects.requireNonNull(thread, "thread");
        ObjectHandle.requireWord(ptr);
        MemorySegment head = MemorySegment.ofArray(new long[(int) (SEQS / 8)]);
        StructureIdentity.inspect(thread, StructureKind.WAIT_FREE_OBJECT, ptr, head, ClosedObjectException::new);
        return (int) requireStateBytes(head.get(ValueLayout.JAVA_LONG, BYTES), ptr);
    }

    private static void check(ComputeThread thread, int capacity, int stateBytes) {
        if (stateBytes < 1) {
            throw new BadArgumentException("a sequential object's state must be 1 byte or more, got " + stateBytes);
        }
        if (capacity < 1) {
            throw new BadArgumentException("a wait-free object's capacity must be 1 or more, got " + capacity);
        }
        long need = bufferBytes(capacity, stateBytes);
        if (need > thread.config().bufferSizePerThread() || StructureIdentity.blockBytes(rootBytes(capacity)) > SizeClasses.MAX
                || blockBytes(capacity, stateBytes) > SizeClasses.MAX) {
            throw new BadArgumentException("a wait-free object of capacity " + capacity + " and " + stateBytes
                    + "-byte states needs " + need + " bytes of the thread's buffer (it has "
                    + thread.config().bufferSizePerThread() + ") and blocks of at most " + SizeClasses.MAX + " bytes");
        }
    }

    /** {@return the sequential object this handle applies operations with} */
    SequentialObject<S> sequential() {
        return object;
    }

    /** {@return the announce slot this handle claimed} */
    public int slot() {
        return slot;
    }

    /** {@return how many announce slots the object has} */
    public int capacity() {
        return capacity;
    }

    /** {@return the bytes of one state block} */
    public int blockBytes() {
        return blockBytes;
    }

    /**
     * Applies one operation to the shared object (see the class for the algorithm and its bound:
     * wait-free, at most 6 round trips and 2 compare-and-swaps of the state pointer besides the
     * allocator). The response's value is returned, its status kept for {@link #status()}.
     *
     * @param operation the operation code, as the sequential object defines it
     * @param argument  its argument
     * @return the response's value word
     * @throws CorruptedMemoryException when the slot's sequence word is not what this handle left there
     *                                  (another handle uses the slot), or the state pointer leads to no
     *                                  state block (see the class)
     * @throws io.remus.ds.reclaim.LeaseExpiredException when called inside an outer guard whose lease ran
     *                                  out (found invalid when the attempt starts over)
     * @throws SequentialOperationException when the sequential object threw applying the operation: it took
     *                                  no effect, and the object goes on working (see the class)
     * @throws ClosedObjectException    when the object was destroyed (by this handle or, found in the READ of
     *                                  the state pointer, by another)
     */
    public long apply(long operation, long argument) {
        identity.requireOpen();
        if (pending) {
            try {
                complete(sequence, false);
            } catch (SequentialOperationException dropped) {
                // the earlier call's response, failed or not, is dropped
            }
        }
        MemorySegment buf = thread.buffer();
        buf.set(ValueLayout.JAVA_LONG, BUF_RECORD, operation);
        buf.set(ValueLayout.JAVA_LONG, BUF_RECORD + 8, argument);
        return complete(sequence + 1, true);
    }

    /**
     * Steps 1 to 4 for this handle's operation {@code k}: announces it first when {@code announcing}
     * (its record is at {@code BUF_RECORD}), otherwise it was announced by a call that threw.
     */
    private long complete(long k, boolean announcing) {
        final ComputeThread t = thread;
        final MemorySegment buf = t.buffer();
        final long seqWord = RemotePtr.offset(ptr, SEQS + 8L * slot);
        final long recordsBase = SEQS + 8L * capacity;
        boolean whole = false;
        while (true) {
            try (Guard g = reclaimer.enter()) {
                long p;
                if (announcing) {
                    p = announce(k, seqWord, recordsBase);
                    announcing = false;
                    pending = true;
                } else {
                    g.check();
                    p = readStatePointer();
                    whole = false;
                }
                while (true) {
                    if (!t.isPublished(p, blockBytes)) {
                        p = pointerWhole(p, whole);
                        whole = true;
                        continue;
                    }
                    t.batch()
                            .read(p, bufOld, blockBytes)
                            .read(RemotePtr.offset(ptr, SEQS), BUF_SEQS, 8 * capacity)
                            .fence().read(RemotePtr.offset(ptr, recordsBase), bufRecords, 2 * RECORD_BYTES * capacity)
                            .execute();
                    if (!g.valid()) {
                        break;
                    }
                    if (buf.get(ValueLayout.JAVA_LONG, bufOld + SELF) != p) {
                        p = pointerWhole(p, whole);
                        whole = true;
                        continue;
                    }
                    long applied = buf.get(ValueLayout.JAVA_LONG, slotAt(bufOld, slot));
                    if ((applied & ~FAILED) >= k) {
                        return respond(bufOld, applied, k);
                    }
                    help();
                    if (spare == RemotePtr.NULL) {
                        spare = allocate();
                    }
                    if (!g.valid()) {
                        break;
                    }
                        long block = spare;
                    buf.set(ValueLayout.JAVA_LONG, bufNew + SELF, block);
                    t.batch()
                            .write(block, bufNew, blockBytes)
                            .compareAndSwap(RemotePtr.offset(ptr, STATE), p, block, BUF_PUBLISHED)
                            .execute();
                    long witness = buf.get(ValueLayout.JAVA_LONG, BUF_PUBLISHED);
                    if (witness == p) {
                        spare = RemotePtr.NULL;
                        reclaimer.retire(p, blockBytes);
                        return respond(bufNew, buf.get(ValueLayout.JAVA_LONG, slotAt(bufNew, slot)), k);
                    }
                    p = witness;
                    whole = true;
                }
            }
        }
    }

    /**
     * The state pointer, read with the root's handles word and the identity word in front of it (one READ of
     * 24 bytes), and the header checked.
     */
    private long readStatePointer() {
        thread.read(identity.headerAddress(), BUF_HEADER, StructureIdentity.PREFIX_BYTES + 8);
        identity.check(thread.buffer().get(ValueLayout.JAVA_LONG, BUF_HEADER));
        return thread.buffer().get(ValueLayout.JAVA_LONG, BUF_POINTER);
    }

    /** Step 1: the announcement, in one batch; returns the state pointer read behind it. */
    private long announce(long k, long seqWord, long recordsBase) {
        MemorySegment buf = thread.buffer();
        thread.batch()
                .write(RemotePtr.offset(ptr, recordsBase + RECORD_BYTES * (2L * slot + (k & 1))), BUF_RECORD, RECORD_BYTES)
                .compareAndSwap(seqWord, k - 1, k, BUF_ANNOUNCED)
                .fence().read(identity.headerAddress(), BUF_HEADER, StructureIdentity.PREFIX_BYTES + 8)
                .execute();
        identity.check(buf.get(ValueLayout.JAVA_LONG, BUF_HEADER));
        long was = buf.get(ValueLayout.JAVA_LONG, BUF_ANNOUNCED);
        if (was != k - 1) {
            throw new CorruptedMemoryException(seqWord, was, "announce slot " + slot + " of the wait-free object at "
                    + RemotePtr.toString(ptr) + " held sequence " + was + ", not the " + (k - 1)
                    + " its owner left: another handle uses the slot");
        }
        sequence = k;
        return buf.get(ValueLayout.JAVA_LONG, BUF_POINTER);
    }

    private long respond(long block, long applied, long k) {
        MemorySegment buf = thread.buffer();
        pending = false;
        if ((applied & ~FAILED) != k) {
            throw new CorruptedMemoryException(RemotePtr.offset(ptr, STATE), applied, "the state of the wait-free object at "
                    + RemotePtr.toString(ptr) + " applied operation " + applied + " of slot " + slot + ", whose owner is at " + k);
        }
        RuntimeException cause = failedSequence == k ? failure : null;
        failure = null;
        if ((applied & FAILED) != 0) {
            long record = bufRecords + RECORD_BYTES * (2L * slot + (k & 1));
            long operation = buf.get(ValueLayout.JAVA_LONG, record);
            long argument = buf.get(ValueLayout.JAVA_LONG, record + 8);
            throw new SequentialOperationException("the sequential object threw applying operation " + operation + " ("
                    + argument + "), number " + k + " of slot " + slot + " of the wait-free object at " + RemotePtr.toString(ptr)
                    + ": it took no effect", operation, argument, cause);
        }
        long at = slotAt(block, slot);
        status = buf.get(ValueLayout.JAVA_LONG, at + 8);
        return buf.get(ValueLayout.JAVA_LONG, at + 16);
    }

    /** Builds the next state block at {@code bufNew} from the one at {@code bufOld} and the announcements. */
    private void help() {
        MemorySegment buf = thread.buffer();
        long stateAt = slotAt(0, capacity);
        S state = object.load(buf.asSlice(bufOld + stateAt, stateBytes));
        MemorySegment.copy(buf, bufOld, buf, bufNew, blockBytes);
        for (int j = 0; j < capacity; j++) {
            long seq = buf.get(ValueLayout.JAVA_LONG, BUF_SEQS + 8L * j);
            long at = slotAt(bufNew, j);
            long applied = buf.get(ValueLayout.JAVA_LONG, at) & ~FAILED;
            boolean apply = switch (helping) {
                case SEQUENCED -> seq == applied + 1;
                case OWN_ONLY -> j == slot && seq == applied + 1;
                case UNSEQUENCED -> seq > 0;
            };
            if (!apply) {
                continue;
            }
            long record = bufRecords + RECORD_BYTES * (2L * j + (seq & 1));
            SequentialObject.Step<S> step;
            try {
                step = object.apply(state, buf.get(ValueLayout.JAVA_LONG, record), buf.get(ValueLayout.JAVA_LONG, record + 8));
            } catch (RuntimeException e) {
                if (j == slot) {
                    failure = e;
                    failedSequence = seq;
                    buf.set(ValueLayout.JAVA_LONG, at, seq | FAILED);
                    buf.set(ValueLayout.JAVA_LONG, at + 8, 0);
                    buf.set(ValueLayout.JAVA_LONG, at + 16, 0);
                }
                continue;
            }
            state = step.state();
            buf.set(ValueLayout.JAVA_LONG, at, seq);
            buf.set(ValueLayout.JAVA_LONG, at + 8, step.status());
            buf.set(ValueLayout.JAVA_LONG, at + 16, step.value());
        }
        object.store(state, buf.asSlice(bufNew + stateAt, stateBytes));
    }

    private long allocate() {
        return allocations.allocate(blockBytes, home);
    }

    /** {@return the status word of the response to this handle's last {@link #apply}} */
    public long status() {
        return status;
    }

    /** {@return how many operations this handle announced (its last sequence number)} */
    public long announced() {
        return sequence;
    }

    /**
     * Reads the current state without changing it: one READ of the state pointer (with the root block's
     * header and the identity word) and one of its block, inside a guard (again in a fresh guard when this
     * thread's lease ran out meanwhile). Wait-free while the guard holds its lease; linearized when the
     * pointer is loaded.
     *
     * @return the state
     * @throws ClosedObjectException when the object was destroyed (by this handle or, found in the READ of the
     *                               state pointer, by another)
     */
    public S read() {
        identity.requireOpen();
        readBlock();
        return object.load(thread.buffer().asSlice(slotAt(bufOld, capacity), stateBytes));
    }

    /**
     * How many operations of announce slot {@code i} the current state has applied (its last applied
     * sequence number; an operation whose sequential step threw counts, without effect): one READ of the
     * state pointer (with the root's handles word and the identity word) and one of its block. With the
     * handle's {@link #announced()} count, shows that every operation took effect exactly once.
     *
     * @param i an announce slot
     * @return the count
     * @throws BadArgumentException  when {@code i} is not a slot
     * @throws ClosedObjectException when the object was destroyed
     */
    public long applied(int i) {
        identity.requireOpen();
        if (i < 0 || i >= capacity) {
            throw new BadArgumentException("announce slot must be 0.." + (capacity - 1) + ", got " + i);
        }
        readBlock();
        return thread.buffer().get(ValueLayout.JAVA_LONG, slotAt(bufOld, i)) & ~FAILED;
    }

    private void readBlock() {
        boolean whole = false;
        long p = RemotePtr.NULL;
        while (true) {
            try (Guard g = reclaimer.enter()) {
                if (!whole) {
                    p = readStatePointer();
                }
                if (!thread.isPublished(p, blockBytes)) {
                    p = pointerWhole(p, whole);
                    whole = true;
                    continue;
                }
                thread.read(p, bufOld, blockBytes);
                if (g.valid()) {
                    if (thread.buffer().get(ValueLayout.JAVA_LONG, bufOld + SELF) == p) {
                        return;
                    }
                    p = pointerWhole(p, whole);
                    whole = true;
                } else {
                    whole = false;
                }
            }
        }
    }

    /**
     * After a block whose self word is not the pointer {@code p} it was read by, or a pointer {@code p} that names
     * no bytes of a segment: the state pointer read
     * by a fetch-and-add of 0, an atomic read that is never torn (1 NIC atomic, 1 round trip), when
     * {@code p} came from a READ that may have been torn; a corrupted object when {@code p} was read whole.
     */
    private long pointerWhole(long p, boolean whole) {
        if (whole) {
            throw new CorruptedMemoryException(RemotePtr.offset(ptr, STATE), p, "the state pointer of the wait-free object at "
                    + RemotePtr.toString(ptr) + " was read whole as " + RemotePtr.toString(p) + ", a block that is not a state"
                    + " block published there (outside every segment, or its self word is not its pointer)");
        }
        return thread.fetchAndAdd(RemotePtr.offset(ptr, STATE), 0);
    }

    /** Frees the spare state block, if this handle keeps one. */
    @Override
    void freeHandleBlocks() {
        if (spare != RemotePtr.NULL) {
            long block = spare;
            spare = RemotePtr.NULL;
            thread.allocator().deallocate(block, blockBytes);
        }
    }

    /** Frees the current state block (one READ of the state pointer): the last handle of a destroyed object. */
    @Override
    void freeOutsideRoot() {
        thread.allocator().deallocate(thread.read(RemotePtr.offset(ptr, STATE)), blockBytes);
    }
}
