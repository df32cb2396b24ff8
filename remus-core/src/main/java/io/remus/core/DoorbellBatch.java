package io.remus.core;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteOperationException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.ThreadConfinementException;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.memory.RemotePtr;

/**
 * A doorbell batch: reads, writes and atomics to ONE node, posted with one call, only the last
 * signalled. Entries are checked as they are added (typed exceptions before anything is posted)
 * and execute in order. Each {@link ComputeThread} owns one batch, reused after every post;
 * building and posting allocate nothing. Batches to the thread's own node go through the loopback
 * QP, reads included. Confined to the compute thread's owner, like the compute thread: adding an
 * entry or posting from another Java thread throws {@link ThreadConfinementException}.
 */
public final class DoorbellBatch {
    private final ComputeThread owner;
    private final WorkRequests requests;
    private int node = -1;
    private long firstAddress;
    private int nextFlags;

    DoorbellBatch(ComputeThread owner, int capacity) {
        this.owner = owner;
        this.requests = new WorkRequests(capacity);
    }

    /** {@return this batch, with the next entry fenced behind earlier reads and atomics} */
    public DoorbellBatch fence() {
        nextFlags = WorkRequests.FENCE;
        return this;
    }

    /**
     * Adds a read of {@code length} bytes at {@code ptr} into the thread's buffer.
     *
     * @param ptr          the first remote byte
     * @param bufferOffset where in the thread's buffer they land
     * @param length       the byte count
     * @return this batch
     */
    public DoorbellBatch read(long ptr, long bufferOffset, int length) {
        int rkey = target(ptr, length, false);
        owner.checkBuffer(bufferOffset, length);
        requests.addRead(0, owner.bufferAddress(bufferOffset), length, owner.lkey(), RemotePtr.address(ptr), rkey, takeFlags());
        return this;
    }

    /**
     * Adds a write of {@code length} bytes of the thread's buffer to {@code ptr}.
     *
     * @param ptr          the first remote byte
     * @param bufferOffset where in the thread's buffer they come from
     * @param length       the byte count
     * @return this batch
     */
    public DoorbellBatch write(long ptr, long bufferOffset, int length) {
        int rkey = target(ptr, length, false);
        owner.checkBuffer(bufferOffset, length);
        requests.addWrite(0, owner.bufferAddress(bufferOffset), length, owner.lkey(), RemotePtr.address(ptr), rkey, takeFlags());
        return this;
    }

    /**
     * Adds a compare-and-swap whose old value lands at {@code resultOffset} of the thread's buffer.
     *
     * @param ptr          an 8-byte aligned word
     * @param expected     the value it must hold
     * @param desired      its new value
     * @param resultOffset where in the thread's buffer the old value lands
     * @return this batch
     */
    public DoorbellBatch compareAndSwap(long ptr, long expected, long desired, long resultOffset) {
        int rkey = target(ptr, 8, true);
        owner.checkBuffer(resultOffset, 8);
        requests.addCompareAndSwap(0, owner.bufferAddress(resultOffset), owner.lkey(), RemotePtr.address(ptr), rkey,
                expected, desired, takeFlags());
        return this;
    }

    /**
     * Adds a fetch-and-add whose old value lands at {@code resultOffset} of the thread's buffer.
     *
     * @param ptr          an 8-byte aligned word
     * @param delta        what to add
     * @param resultOffset where in the thread's buffer the old value lands
     * @return this batch
     */
    public DoorbellBatch fetchAndAdd(long ptr, long delta, long resultOffset) {
        int rkey = target(ptr, 8, true);
        owner.checkBuffer(resultOffset, 8);
        requests.addFetchAndAdd(0, owner.bufferAddress(resultOffset), owner.lkey(), RemotePtr.address(ptr), rkey, delta,
                takeFlags());
        return this;
    }

    /** {@return entries added since the last post or clear} */
    public int size() {
        return requests.size();
    }

    /** Drops every entry. */
    public void clear() {
        requests.clear();
        node = -1;
        nextFlags = 0;
    }

    /**
     * Posts the batch and waits for its last entry.
     *
     * @throws RemoteOperationException when any entry failed
     * @throws RemoteTimeoutException   when the batch did not complete in time
     */
    public void execute() {
        owner.confinedOpen();
        owner.await(post());
    }

    /**
     * Posts the batch with one doorbell and empties it for reuse.
     *
     * @return the {@link OpHandle} completing with the batch's last entry, for
     * {@link ComputeThread#await(long)}
     * @throws BadArgumentException when the batch is empty or no handle is free
     */
    public long post() {
        owner.confinedOpen();
        if (requests.size() == 0) {
            throw new BadArgumentException("cannot post an empty batch");
        }
        try {
            return owner.handle(owner.postBatch(requests, node, firstAddress));
        } finally {
            clear();
        }
    }

    private int target(long ptr, int length, boolean atomic) {
        owner.confinedOpen();
        int n = RemotePtr.node(ptr);
        if (node >= 0 && n != node) {
            throw new BadArgumentException("a batch targets one node: it holds node " + node + ", got " + RemotePtr.toString(ptr));
        }
        if (requests.size() == requests.capacity()) {
            throw new BadArgumentException("batch is full (" + requests.capacity() + " work requests)");
        }
        int rkey = owner.checkTarget(ptr, length, atomic);
        if (node < 0) {
            node = n;
            firstAddress = RemotePtr.address(ptr);
        }
        return rkey;
    }

    private int takeFlags() {
        int f = nextFlags;
        nextFlags = 0;
        return f;
    }
}
