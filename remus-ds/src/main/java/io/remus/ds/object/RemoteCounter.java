package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * thread. Each handle is closed when its thread is done ({@link #close()}); the counter lives until one handle
 * calls {@link #destroy()}, and its memory until the last handle is closed (see {@link StructureIdentity}).
 *
 * <p><b>Progress and cost</b> (n = number of threads, which none of them depends on):
 * <table>
 *   <caption>per call</caption>
 *   <tr><th>method</th><th>progress</th><th>RDMA operations</th><th>round trips</th></tr>
 *   <tr><td>{@link #fetchAndAdd}</td><td>wait-free</td><td>1 fetch-and-add and an 8-byte READ of the handles
 *       word, in one doorbell</td><td>1</td></tr>
 *   <tr><td>{@link #read}</td><td>wait-free</td><td>1 READ of 24 bytes: the handles word, the identity
 *       word and the value (none on the counter's node: a CPU copy)</td><td>1 (0)</td></tr>
 * </table>
 * The thread's registered buffer is scratch (24 bytes from offset 0) during a call.
 *
 * <p><b>Linearizable</b> with respect to fetch-and-add and read of a sequential counter: a
 * fetch-and-add takes effect when the NIC applies it, a read when the word is loaded. NIC atomics are
 * atomic among themselves, and a CPU load or an 8-byte RDMA READ of an aligned word sees a NIC
 * atomic's store whole (the atomicity table of the architecture notes); the word is never written
 * otherwise once published.
 *
 * <p>One instance per compute thread, used by its owner, like the compute thread.
 */
public final class RemoteCounter extends ObjectHandle {
    /** Bytes of the counter's root (its value word), after its handles and identity words. */
    public static final int BYTES = 8;

    private RemoteCounter(ComputeThread thread, StructureIdentity identity) {
        super(thread, identity, BYTES);
    }

    /**
     * Allocates a counter on memory node {@code nodeId} holding {@code initial}: the allocation, the
     * identity word (a CPU load and store on the thread's own node, else 1 READ and 1 WRITE), then one
     * WRITE of the value (before the pointer is known to anyone).
     *
     * @param thread  the creator's compute thread
     * @param nodeId  a memory node
     * @param initial the first value
     * @return the creator's handle
     */
    public static RemoteCounter create(ComputeThread thread, int nodeId, long initial) {
        Objects.requireNonNull(thread, "thread");
        StructureIdentity identity = StructureIdentity.allocate(thread, StructureKind.REMOTE_COUNTER, BYTES, nodeId,
                ClosedObjectException::new);
        thread.write(identity.ptr(), initial);
        return new RemoteCounter(thread, identity);
    }

    /**
     * A handle on a counter another thread created: one READ (the root block's header, the handles word and the
     * identity word) and one compare-and-swap of the handles word ({@link StructureIdentity#attach}).
     *
     * @param thread the caller's compute thread
     * @param ptr    what {@link #ptr()} of the creator's handle returned
     * @return the handle
     * @throws BadArgumentException    when the pointer is null or not 8-byte aligned
     * @throws WrongStructureException when no counter is there (another kind of structure, or none)
     * @throws ClosedObjectException   when the counter there was destroyed
     */
    public static RemoteCounter attach(ComputeThread thread, long ptr) {
        Objects.requireNonNull(thread, "thread");
        return new RemoteCounter(thread, attachRoot(thread, StructureKind.REMOTE_COUNTER, ptr, MemorySegment.NULL, root -> { }));
    }

    /**
     * Reads the first word of a root with the handles word and identity word in front, in one READ of 24 bytes
     * into the thread's buffer (offsets 0 to 23; a CPU copy on the root's node), and checks the handles word
     * ({@link StructureIdentity#check}).
     *
     * @return the root's first word
     * @throws ClosedObjectException when the structure was destroyed
     */
    static long readFirstWord(ComputeThread thread, StructureIdentity identity) {
        thread.read(identity.headerAddress(), 0, StructureIdentity.PREFIX_BYTES + 8);
        MemorySegment buf = thread.buffer();
        identity.check(buf.get(ValueLayout.JAVA_LONG, 0));
        return buf.get(ValueLayout.JAVA_LONG, StructureIdentity.PREFIX_BYTES);
    }

    /**
     * Adds {@code delta}: one RDMA fetch-and-add, with an 8-byte READ of the handles word in the same doorbell
     * (is the counter destroyed?): one round trip, wait-free.
     *
     * @param delta what to add (wraps around on overflow, as the NIC does)
     * @return the value before
     * @throws ClosedObjectException when the counter was destroyed (by this handle or, found in the READ, by
     *                               another; the add then went to the destroyed counter, which nobody reads)
     */
    public long fetchAndAdd(long delta) {
        identity.requireOpen();
        thread.batch().read(identity.headerAddress(), 0, 8).fetchAndAdd(ptr, delta, 8).execute();
        identity.check(thread.buffer().get(ValueLayout.JAVA_LONG, 0));
        return thread.buffer().get(ValueLayout.JAVA_LONG, 8);
    }

    /**
     * The current value: one READ of the value with the root's handles word and identity word in front, one
     * round trip (a CPU copy on the counter's node), wait-free.
     *
     * @return the value
     * @throws ClosedObjectException when the counter was destroyed (by this handle or, found in the READ,
     *                               by another)
     */
    public long read() {
        identity.requireOpen();
        return readFirstWord(thread, identity);
    }
}
