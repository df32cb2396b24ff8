package io.remus.ds.object;

import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;

import java.util.Objects;

/**
 * A shared 64-bit counter in one word of a memory node: {@link #fetchAndAdd(long)} is one RDMA
 * fetch-and-add, {@link #read()} one RDMA READ of the word. The simplest of the wait-free objects of
 * ROMe ("Wait-free objects for RDMA", SPAA 2024): the NIC's atomic makes every
 * operation a single step.
 *
 * <pre>
 *  ptr + 0: value (8 bytes, changed only by RDMA fetch-and-add)
 * </pre>
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the word with the thread's
 * {@link ComputeThread#allocator()} on a memory node and stores the initial value before anyone can
 * know the pointer; the creator hands {@link #ptr()} to the others (a root word, a message, a
 * known slot), and each thread that uses the counter calls {@link #attach} with its own compute
 * thread. The counter lives until {@link #destroy()}, which its creator calls once no thread uses it.
 *
 * <p><b>Progress and cost</b> (n = number of threads, which none of them depends on):
 * <table>
 *   <caption>per call</caption>
 *   <tr><th>method</th><th>progress</th><th>RDMA operations</th><th>round trips</th></tr>
 *   <tr><td>{@link #fetchAndAdd}</td><td>wait-free</td><td>1 fetch-and-add</td><td>1</td></tr>
 *   <tr><td>{@link #read}</td><td>wait-free</td><td>1 READ (none on the counter's node: a CPU load)</td><td>1 (0)</td></tr>
 * </table>
 *
 * <p><b>Linearizable</b> with respect to fetch-and-add and read of a sequential counter: a
 * fetch-and-add takes effect when the NIC applies it, a read when the word is loaded. NIC atomics are
 * atomic among themselves, and a CPU load or an 8-byte RDMA READ of an aligned word sees a NIC
 * atomic's store whole (the atomicity table of the architecture notes); the word is never written
 * otherwise once published.
 *
 * <p>One instance per compute thread, used by its owner, like the compute thread.
 */
public final class RemoteCounter {
    /** Bytes of the counter's block. */
    public static final int BYTES = 8;

    private final ComputeThread thread;
    private final long ptr;

    private RemoteCounter(ComputeThread thread, long ptr) {
        this.thread = thread;
        this.ptr = ptr;
    }

    /**
     * Allocates a counter on memory node {@code nodeId} holding {@code initial}: the allocation, then
     * one WRITE of the word (before the pointer is known to anyone).
     *
     * @param thread  the creator's compute thread
     * @param nodeId  a memory node
     * @param initial the first value
     * @return the creator's handle
     */
    public static RemoteCounter create(ComputeThread thread, int nodeId, long initial) {
        Objects.requireNonNull(thread, "thread");
        long p = thread.allocator().allocate(BYTES, nodeId);
        thread.write(p, initial);
        return new RemoteCounter(thread, p);
    }

    /**
     * A handle on a counter another thread created; no RDMA operation.
     *
     * @param thread the caller's compute thread
     * @param ptr    what {@link #ptr()} of the creator's handle returned
     * @return the handle
     * @throws BadArgumentException when the pointer is null or not 8-byte aligned
     */
    public static RemoteCounter attach(ComputeThread thread, long ptr) {
        Objects.requireNonNull(thread, "thread");
        requireWord(ptr);
        return new RemoteCounter(thread, ptr);
    }

    static void requireWord(long ptr) {
        if (RemotePtr.isNull(ptr) || (RemotePtr.address(ptr) & 7) != 0) {
            throw new BadArgumentException("an object pointer must be non-null and 8-byte aligned, got " + RemotePtr.toString(ptr));
        }
    }

    /** {@return the counter's word, to hand to {@link #attach}} */
    public long ptr() {
        return ptr;
    }

    /**
     * Adds {@code delta}: one RDMA fetch-and-add, one round trip, wait-free.
     *
     * @param delta what to add (wraps around on overflow, as the NIC does)
     * @return the value before
     */
    public long fetchAndAdd(long delta) {
        return thread.fetchAndAdd(ptr, delta);
    }

    /**
     * The current value: one READ, one round trip (a CPU load on the counter's node), wait-free.
     *
     * @return the value
     */
    public long read() {
        return thread.read(ptr);
    }

    /**
     * Frees the counter's word with the thread's allocator. Only once no thread uses the counter any
     * more: a handle used afterwards reads and changes freed memory.
     */
    public void destroy() {
        thread.allocator().deallocate(ptr, BYTES);
    }
}
