package io.remus.ds.object;

import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.LockWord;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Any {@link SequentialObject} kept in place in remote memory and protected by one remus-alock
 * {@link Lock}: the blocking twin of {@link WaitFreeObject}, over the same sequential objects, for
 * comparing the two. A call locks, READs the state block, applies the operation in the thread's
 * memory, WRITEs the block back when the operation changed it, and unlocks.
 *
 * <pre>
 *  root (on the object's node; ptr 8-byte aligned):
 *  -24       the root block's allocator header
 *  -16       the handles word ({@link StructureIdentity})
 *  -8        the identity word
 *  +0        bytes s     the sequential object's state size, written once before the pointer is known
 *  +8        state       the sequential object's serialized state, s bytes (rounded up to 8: s8)
 *  L         lock word   {@link LockWord#SIZE} bytes, owned by the lock kind, at the first 64-byte boundary
 *                        L at or after ptr + 8 + s8
 * </pre>
 *
 * <p><b>Progress: blocking.</b> A thread that holds the lock and stalls (a GC pause, descheduling, a
 * frozen process) stops every other thread's call until it resumes; a holder that dies leaves the lock
 * held for good, and the others' calls throw {@link io.remus.alock.LockTimeoutException} once the
 * context's acquire timeout runs out (the object is then unusable). Compare {@link WaitFreeObject},
 * where a stalled thread delays nobody.
 *
 * <p><b>Cost</b> per {@link #apply} ({@code s} the state's bytes): the lock's acquire and release (ALock:
 * CPU atomics for a thread on the lock's node, RDMA compare-and-swaps and WRITEs for the others; spin:
 * one RDMA compare-and-swap per attempt, unbounded under contention, and one to release), plus 1 READ of
 * {@code 24 + s} bytes (the handles word, the identity word, the state size and the state), plus 1
 * WRITE of {@code s} bytes when the operation changed the state (none for an
 * operation that returns the state unchanged: a read, a take from an empty container). Each is one round
 * trip; READs and WRITEs to the caller's own node are network operations too unless the compute thread
 * takes its CPU path for them. {@link #read} is the lock plus 1 READ.
 *
 * <p><b>Linearizable</b> with respect to the sequential object: an operation takes effect while its
 * caller holds the lock, between its READ and its WRITE, which the lock orders with every other call's.
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the root, with its identity in front, with the
 * thread's allocator and writes the state size, the initial state and a free lock word in one WRITE before the
 * pointer is known; others {@link #attach} with {@link #ptr()}, the same lock kind and a sequential object
 * equal to the creator's (an attach refuses a pointer to anything but a live locked object whose states have
 * that object's size). The thread's registered buffer is scratch ({@link #bufferBytes} bytes from offset 0)
 * during a call.
 *
 * <p><b>Closing and destroying.</b> Each handle is closed when its thread is done ({@link #close()});
 * {@link #destroy} marks the object destroyed, and its block is freed when the last handle is closed (see
 * {@link StructureIdentity}). The other handles' calls learn of a destroy from the READ of the state they do
 * anyway, which starts at the handles word ({@link ClosedObjectException}); the lock they took first is in the
 * destroyed block, which stays allocated while they are open.
 *
 * <p>One instance per compute thread, used by its owner, like the compute thread and the lock handle.
 *
 * @param <S> the sequential object's state type
 */
public final class LockedObject<S> extends ObjectHandle {
    private static final long BYTES = 0;
    private static final long STATE = 8;
    /** Where a call's READ puts the state in the buffer: behind the header, the identity word and the size. */
    private static final long BUF_STATE = StructureIdentity.PREFIX_BYTES + STATE;

    private final Lock lock;
    private final SequentialObject<S> object;
    private final int stateBytes;
    private long status;

    private LockedObject(ComputeThread thread, StructureIdentity identity, Lock lock, SequentialObject<S> object) {
        super(thread, identity, rootBytes(object.stateBytes()));
        this.lock = lock;
        this.object = object;
        this.stateBytes = object.stateBytes();
    }

    private static int padded(int stateBytes) {
        return (stateBytes + 7) & ~7;
    }

    /** {@return the bytes of the root: size, state, up to 56 bytes to align the lock word, the lock word} */
    private static long rootBytes(int stateBytes) {
        return STATE + padded(stateBytes) + 2L * LockWord.SIZE - 8;
    }

    /** {@return the lock word of the object at {@code root} whose states have {@code stateBytes} bytes} */
    static long lockWord(long root, int stateBytes) {
        return LockWord.alignUp(RemotePtr.offset(root, STATE + padded(stateBytes)));
    }

    /** {@return where the state of the object at {@code root} starts} */
    static long state(long root) {
        return RemotePtr.offset(root, STATE);
    }

    /**
     * The scratch bytes of the thread's buffer a handle uses during a call.
     *
     * @param stateBytes the sequential object's state size
     * @return the byte count, from offset 0
     */
    public static long bufferBytes(int stateBytes) {
        return rootBytes(stateBytes);
    }

    /**
     * Allocates an object on memory node {@code nodeId} in the sequential object's initial state, with a
     * free lock: the allocation, the identity word (a CPU load and store on the thread's own node, else 1 READ
     * and 1 WRITE), then one WRITE of the state size, the state and the lock word.
     *
     * @param context the creator's lock context (its compute thread's)
     * @param kind    the lock every handle of the object uses
     * @param nodeId  a memory node
     * @param object  the sequential object
     * @param <S>     its state type
     * @return the creator's handle
     * @throws BadArgumentException when the state does not fit a block or the thread's buffer
     */
    public static <S> LockedObject<S> create(LockContext context, LockKind kind, int nodeId, SequentialObject<S> object) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(object, "object");
        ComputeThread thread = context.thread();
        int s = check(thread, object.stateBytes());
        StructureIdentity identity = StructureIdentity.allocate(thread, StructureKind.LOCKED_OBJECT, rootBytes(s), nodeId,
                ClosedObjectException::new);
        long root = identity.ptr();
        long word = lockWord(root, s);
        MemorySegment buf = thread.buffer();
        long length = RemotePtr.address(word) + LockWord.SIZE - RemotePtr.address(root);
        buf.asSlice(0, length).fill((byte) 0);
        buf.set(ValueLayout.JAVA_LONG, BYTES, s);
        object.store(object.initialState(), buf.asSlice(STATE, s));
        thread.write(root, 0, (int) length);
        return new LockedObject<>(thread, identity, kind.open(context, word), object);
    }

    /**
     * A handle on an object another thread created: one READ (the root block's header, the handles and
     * identity words and the state size) and one compare-and-swap of the handles word
     * ({@link StructureIdentity#attach}). The caller vouches that the creator used this lock kind and an equal sequential object.
     *
     * @param context the caller's lock context (its compute thread's)
     * @param kind    the lock kind the creator gave
     * @param ptr     what {@link #ptr()} returned
     * @param object  the sequential object, equal to the creator's
     * @param <S>     its state type
     * @return the handle
     * @throws BadArgumentException    when the pointer is null or not 8-byte aligned, the state does not fit
     *                                 the thread's buffer, or the object holds states of another size
     * @throws WrongStructureException when no locked object is there (another kind of structure, or none)
     * @throws ClosedObjectException   when the object there was destroyed
     */
    public static <S> LockedObject<S> attach(LockContext context, LockKind kind, long ptr, SequentialObject<S> object) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(object, "object");
        ComputeThread thread = context.thread();
        requireWord(ptr);
        int s = check(thread, object.stateBytes());
        MemorySegment head = MemorySegment.ofArray(new long[1]);
        StructureIdentity identity = StructureIdentity.attach(thread, StructureKind.LOCKED_OBJECT, ptr, head,
                ClosedObjectException::new, copy -> {
                    long bytes = copy.get(ValueLayout.JAVA_LONG, BYTES);
                    if (bytes != s) {
                        throw new BadArgumentException("the locked object at " + RemotePtr.toString(ptr) + " holds states of "
                                + bytes + " bytes, the sequential object given has " + s);
                    }
                });
        return new LockedObject<>(thread, identity, kind.open(context, lockWord(ptr, s)), object);
    }

    private static int check(ComputeThread thread, int stateBytes) {
        if (stateBytes < 1 || StructureIdentity.blockBytes(rootBytes(stateBytes)) > SizeClasses.MAX
                || bufferBytes(stateBytes) > thread.config().bufferSizePerThread()) {
            throw new BadArgumentException("a locked object of " + stateBytes + "-byte states needs 1 byte or more, "
                    + bufferBytes(stateBytes) + " bytes of the thread's buffer (it has "
                    + thread.config().bufferSizePerThread() + ") and a block of at most " + SizeClasses.MAX + " bytes");
        }
        return stateBytes;
    }

    /** {@return this handle's lock, for its counters and state} */
    public Lock lock() {
        return lock;
    }

    /**
     * Applies one operation under the lock (blocking; see the class for its cost). The response's value is
     * returned, its status kept for {@link #status()}.
     *
     * @param operation the operation code, as the sequential object defines it
     * @param argument  its argument
     * @return the response's value word
     * @throws io.remus.alock.LockTimeoutException when the lock was not acquired within the context's timeout
     * @throws ClosedObjectException when the object was destroyed (by this handle or, found in the READ of the
     *                               state, by another; then the operation took no effect)
     */
    public long apply(long operation, long argument) {
        identity.requireOpen();
        MemorySegment state = thread.buffer().asSlice(BUF_STATE, stateBytes);
        lock.lock();
        try {
            readState();
            S before = object.load(state);
            SequentialObject.Step<S> step = object.apply(before, operation, argument);
            if (step.state() != before) {
                object.store(step.state(), state);
                thread.write(RemotePtr.offset(ptr, STATE), BUF_STATE, stateBytes);
            }
            status = step.status();
            return step.value();
        } finally {
            lock.unlock();
        }
    }

    /** {@return the status word of the response to this handle's last {@link #apply}} */
    public long status() {
        return status;
    }

    /**
     * Reads the current state under the lock: the lock, 1 READ (of the handles word, the identity word,
     * the state size and the state), the unlock. Blocking.
     *
     * @return the state
     * @throws ClosedObjectException when the object was destroyed (by this handle or, found in the READ, by
     *                               another)
     */
    public S read() {
        identity.requireOpen();
        lock.lock();
        try {
            readState();
            return object.load(thread.buffer().asSlice(BUF_STATE, stateBytes));
        } finally {
            lock.unlock();
        }
    }

    /** Reads the state with the handles word, the identity word and the size in front, and checks the handles word. */
    private void readState() {
        thread.read(identity.headerAddress(), 0, (int) BUF_STATE + stateBytes);
        identity.check(thread.buffer().get(ValueLayout.JAVA_LONG, 0));
    }
}
