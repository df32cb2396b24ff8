package io.remus.verbs;

import java.lang.foreign.MemorySegment;

/**
 * The last state of a reliable-connected queue pair: ready to send. Work is posted through
 * flyweights preallocated here: {@link #sendBatch(int)} and {@link #receiveBatch(int)}.
 * After an error completion the queue pair is in the error state for good
 * ({@link #state()}): close it and build a new one from the same {@link QueuePairBuilder}.
 */
public final class ConnectedQueuePair implements AutoCloseable {
    private final QueuePairHandle handle;

    ConnectedQueuePair(QueuePairHandle handle) {
        this.handle = handle;
    }

    /**
     * Preallocates a chain of send requests in this queue pair's native memory (freed with it).
     *
     * @param capacity how many requests one post may carry, 1 to the queue pair's max send requests
     * @return the batch
     */
    public SendBatch sendBatch(int capacity) {
        handle.requireOpen();
        return new SendBatch(handle, capacity);
    }

    /**
     * Preallocates a chain of receive requests in this queue pair's native memory (freed with it).
     *
     * @param capacity how many requests one post may carry, 1 to the queue pair's max receive requests
     * @return the batch
     * @throws InvalidArgumentException if the queue pair takes receives from a shared receive queue
     */
    public ReceiveBatch receiveBatch(int capacity) {
        handle.requireOpen();
        if (handle.hasSharedReceiveQueue) {
            throw new InvalidArgumentException("this queue pair receives through its shared receive queue: post there");
        }
        return new ReceiveBatch(handle, handle.qp, handle.postReceiveFunction, false, capacity,
                handle.maxReceiveWorkRequests, handle.maxReceiveScatterGather, handle.pd, handle.maxMessageSize);
    }

    /** {@return the current state ({@code ibv_query_qp})} */
    public QueuePairState state() {
        return handle.state();
    }

    /**
     * Sets what the peer's requests may do on this queue pair as responder ({@code ibv_modify_qp} with
     * {@code IBV_QP_ACCESS_FLAGS} only, which the device accepts in RTS): a peer's RDMA WRITE, WRITE with
     * immediate or atomic that the new flags refuse completes at the peer with {@code IBV_WC_REM_ACCESS_ERR},
     * and its queue pair goes to the error state. One verb call, no RDMA operation.
     *
     * @param access the remote accesses allowed ({@link Access#REMOTE_READ}, {@link Access#REMOTE_WRITE},
     *               {@link Access#REMOTE_ATOMIC}) and {@link Access#LOCAL_WRITE}
     * @throws NullPointerException when {@code access} is null
     * @throws VerbsException if {@code ibv_modify_qp} fails (e.g. {@code EINVAL} in a state that takes no
     *                        access change, such as ERROR)
     */
    public void setAccess(java.util.Set<Access> access) {
        java.util.Objects.requireNonNull(access, "access");
        handle.modifyAccess(Access.flags(access));
    }

    /** {@return the QP number} */
    public int queuePairNumber() {
        return handle.number();
    }

    /** {@return how many send requests may be outstanding} */
    public int maxSendWorkRequests() {
        return handle.maxSendWorkRequests;
    }

    /** {@return the most bytes an inline request may carry} */
    public int maxInlineData() {
        return handle.maxInlineData;
    }

    /** {@return whether it is closed} */
    public boolean isClosed() {
        return handle.isClosed();
    }

    /** {@return the {@code struct ibv_qp *} (escape hatch to the raw layer)} */
    public MemorySegment handle() {
        handle.requireOpen();
        return handle.qp;
    }

    /**
     * Destroys the queue pair ({@code ibv_destroy_qp}); idempotent, from any thread. Posts that
     * start after it began throw {@link ClosedResourceException}; it waits for posts in flight on
     * other threads to return first, so none runs on the destroyed queue pair.
     */
    @Override
    public void close() {
        handle.close();
    }
}
