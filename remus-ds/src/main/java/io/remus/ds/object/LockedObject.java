package io.remus.ds.object;

import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.LockKind;
import io.remus.alock.LockWord;
import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.memory.SizeClasses;

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
 *  root (on the object's node; ptr = the lock word, 64-byte aligned):
 *  +0        lock word   {@link LockWord#SIZE} bytes, owned by the lock kind
 *  +64       state       the sequential object's serialized state, s bytes (rounded up to 8)
 *  +64 + s8  block       the allocation the root lies in, for {@link #destroy}
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
 * {@code s} bytes, plus 1 WRITE of {@code s} bytes when the operation changed the state (none for an
 * operation that returns the state unchanged: a read, a take from an empty container). Each is one round
 * trip; READs and WRITEs to the caller's own node are network operations too unless the compute thread
 * takes its CPU path for them. {@link #read} is the lock plus 1 READ.
 *
 * <p><b>Linearizable</b> with respect to the sequential object: an operation takes effect while its
 * caller holds the lock, between its READ and its WRITE, which the lock orders with every other call's.
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the root with the thread's allocator and
 * writes a free lock word and the initial state in one WRITE before the pointer is known; others
 * {@link #attach} with {@link #ptr()}, the same lock kind and an equal sequential object. The thread's
 * registered buffer is scratch ({@link #bufferBytes} bytes from offset 0) during a call.
 *
 * <p>One instance per compute thread, used by its owner, like the compute thread and the lock handle.
 *
 * @param <S> the sequential object's state type
 */
public final class LockedObject<S> {
    private static final long STATE = LockWord.SIZE;

    private final ComputeThread thread;
    private final Lock lock;
    private final SequentialObject<S> object;
    private final long word;
    private final int stateBytes;
    private long status;

    private LockedObject(ComputeThread thread, Lock lock, SequentialObject<S> object, long word) {
        this.thread = thread;
        this.lock = lock;
        this.object = object;
        this.word = word;
        this.stateBytes = object.stateBytes();
    }

    private static int padded(int stateBytes) {
        return (stateBytes + 7) & ~7;
    }

    private static long allocationBytes(int stateBytes) {
        return 2L * LockWord.SIZE + padded(stateBytes) + 8;
    }

    /**
     * The scratch bytes of the thread's buffer a handle uses during a call.
     *
     * @param stateBytes the sequential object's state size
     * @return the byte count, from offset 0
     */
    public static long bufferBytes(int stateBytes) {
        return LockWord.SIZE + padded(stateBytes) + 8;
    }

    /**
     * Allocates an object on memory node {@code nodeId} in the sequential object's initial state, with a
     * free lock: the allocation, then one WRITE of the lock word, the state and the block pointer.
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
        long block = thread.allocator().allocate(allocationBytes(s), nodeId);
        long word = LockWord.alignUp(block);
        MemorySegment buf = thread.buffer();
        long length = bufferBytes(s);
        buf.asSlice(0, length).fill((byte) 0);
        object.store(object.initialState(), buf.asSlice(STATE, s));
        buf.set(ValueLayout.JAVA_LONG, STATE + padded(s), block);
        thread.write(word, 0, (int) length);
        return new LockedObject<>(thread, kind.open(context, word), object, word);
    }

    /**
     * A handle on an object another thread created. Reads nothing: the caller vouches that
     * {@code ptr} is such an object, with this lock kind and an equal sequential object.
     *
     * @param context the caller's lock context (its compute thread's)
     * @param kind    the lock kind the creator gave
     * @param ptr     what {@link #ptr()} returned
     * @param object  the sequential object, equal to the creator's
     * @param <S>     its state type
     * @return the handle
     * @throws BadArgumentException when the pointer is null or not 64-byte aligned, or the state does not
     *                              fit the thread's buffer
     */
    public static <S> LockedObject<S> attach(LockContext context, LockKind kind, long ptr, SequentialObject<S> object) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(object, "object");
        LockWord.checkAligned(ptr);
        check(context.thread(), object.stateBytes());
        return new LockedObject<>(context.thread(), kind.open(context, ptr), object, ptr);
    }

    private static int check(ComputeThread thread, int stateBytes) {
        if (stateBytes < 1 || allocationBytes(stateBytes) > SizeClasses.MAX
                || bufferBytes(stateBytes) > thread.config().bufferSizePerThread()) {
            throw new BadArgumentException("a locked object of " + stateBytes + "-byte states needs 1 byte or more, "
                    + bufferBytes(stateBytes) + " bytes of the thread's buffer (it has "
                    + thread.config().bufferSizePerThread() + ") and a block of at most " + SizeClasses.MAX + " bytes");
        }
        return stateBytes;
    }

    /** {@return the object's root (its lock word), to hand to {@link #attach}} */
    public long ptr() {
        return word;
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
     */
    public long apply(long operation, long argument) {
        MemorySegment state = thread.buffer().asSlice(0, stateBytes);
        long at = RemotePtr.offset(word, STATE);
        lock.lock();
        try {
            thread.read(at, 0, stateBytes);
            S before = object.load(state);
            SequentialObject.Step<S> step = object.apply(before, operation, argument);
            if (step.state() != before) {
                object.store(step.state(), state);
                thread.write(at, 0, stateBytes);
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
     * Reads the current state under the lock: the lock, 1 READ, the unlock. Blocking.
     *
     * @return the state
     */
    public S read() {
        lock.lock();
        try {
            thread.read(RemotePtr.offset(word, STATE), 0, stateBytes);
            return object.load(thread.buffer().asSlice(0, stateBytes));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Frees the object's block with the thread's allocator (one READ of the block pointer). Only once no
     * thread uses the object any more.
     */
    public void destroy() {
        long block = thread.read(RemotePtr.offset(word, STATE + padded(stateBytes)));
        thread.allocator().deallocate(block, allocationBytes(stateBytes));
    }
}
