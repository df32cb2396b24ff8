package io.remus.bench.perftest;

import java.lang.foreign.MemorySegment;

/**
 * One side's data path: a registered buffer, QPs to the peer's registered buffer, and a completion
 * queue. Offsets are relative to the start of either buffer; both buffers have {@link #bufferBytes()}
 * bytes. Posting and polling allocate nothing. One owning thread.
 */
public interface BenchConnection extends AutoCloseable {
    /** @return this side's registered buffer (the CPU's view) */
    MemorySegment buffer();

    /** @return the length of each side's buffer */
    long bufferBytes();

    /** @return the most completions one {@link #poll(long[])} returns; its array needs this length */
    int completionCapacity();

    /** @return the QPs to the peer */
    int queuePairs();

    /**
     * Posts an RDMA READ of the peer's bytes into this side's buffer.
     *
     * @param qp           the QP index
     * @param localOffset  destination offset here
     * @param remoteOffset source offset at the peer
     * @param bytes        length
     * @param wrId         returned by {@link #poll(long[])} when signalled
     * @param signaled     whether it completes into the completion queue
     */
    void read(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled);

    /**
     * Posts an RDMA WRITE of this side's bytes to the peer's buffer.
     *
     * @param qp           the QP index
     * @param localOffset  source offset here
     * @param remoteOffset destination offset at the peer
     * @param bytes        length
     * @param wrId         returned by {@link #poll(long[])} when signalled
     * @param signaled     whether it completes into the completion queue
     */
    void write(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled);

    /**
     * Posts an 8-byte atomic on the peer's buffer; the old value lands at {@code localOffset}.
     *
     * @param qp           the QP index
     * @param type         compare-and-swap or fetch-and-add
     * @param localOffset  where the old value lands, 8-byte aligned
     * @param remoteOffset the target word, 8-byte aligned
     * @param compareOrAdd the expected value (CAS) or the delta (FAA)
     * @param swap         the desired value (CAS); ignored for FAA
     * @param wrId         returned by {@link #poll(long[])} when signalled
     * @param signaled     whether it completes into the completion queue
     */
    void atomic(int qp, AtomicType type, long localOffset, long remoteOffset, long compareOrAdd, long swap,
                long wrId, boolean signaled);

    /**
     * Posts a two-sided SEND of this side's bytes; it consumes a receive the peer posted.
     *
     * @param qp          the QP index
     * @param localOffset source offset here
     * @param bytes       length
     * @param wrId        returned by {@link #poll(long[])} when signalled
     * @param signaled    whether it completes into the completion queue
     * @throws UnsupportedOperationException when the fabric has no SEND/RECV (the simulator)
     */
    default void send(int qp, long localOffset, int bytes, long wrId, boolean signaled) {
        throw new UnsupportedOperationException("this fabric has no two-sided SEND/RECV");
    }

    /**
     * Posts one receive into this side's buffer; its completion (id {@code wrId}) comes when a
     * peer's SEND lands there.
     *
     * @param qp          the QP index
     * @param localOffset destination offset here
     * @param bytes       the most bytes it accepts
     * @param wrId        returned by {@link #poll(long[])}
     * @throws UnsupportedOperationException when the fabric has no SEND/RECV (the simulator)
     */
    default void receive(int qp, long localOffset, int bytes, long wrId) {
        throw new UnsupportedOperationException("this fabric has no two-sided SEND/RECV");
    }

    /** @return how many receives each QP can hold posted ({@code -r}); 0 without SEND/RECV */
    default int receiveDepth() {
        return 0;
    }

    /**
     * Moves finished work requests' ids into {@code wrIds}, never blocking.
     *
     * @param wrIds where the ids go, from index 0
     * @return how many completed
     * @throws BenchFailedException when a work request completed with an error
     */
    int poll(long[] wrIds);

    /** Frees this side's QPs, completion queue and buffer. Idempotent. */
    @Override
    void close();
}
