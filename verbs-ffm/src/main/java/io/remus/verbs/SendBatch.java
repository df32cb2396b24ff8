package io.remus.verbs;

import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.ffi.ibv_send_wr;
import io.remus.verbs.ffi.ibv_sge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable flyweight over a preallocated chain of native send requests
 * ({@code struct ibv_send_wr[]} and their {@code struct ibv_sge[]}) of a connected queue pair:
 * add RDMA READs, WRITEs (inline, with immediate), SENDs, compare-and-swaps and
 * fetch-and-adds, then {@link #post()} the chain with one {@code post_send} call (one
 * doorbell). Signal only the requests whose completion you need, e.g. the last of a chain.
 *
 * <p>Filling and posting allocate nothing. Every argument is checked before it is written:
 * local ranges within their registered region, lengths, inline sizes, 8-byte aligned remote
 * atomics on 8 local bytes, the number of scatter/gather entries, the batch's capacity, and
 * that the queue pair and regions are open. One thread at a time.
 *
 * <p>{@link #post()} is safe against {@link ConnectedQueuePair#close()} on another thread: the
 * close waits for a post in flight to return before it destroys the queue pair, and a post that
 * starts after the close began throws {@link ClosedResourceException} without calling the provider.
 * The batch's own requests live in memory of its own (an automatic arena, freed once the batch is
 * unreachable), not the queue pair's, so filling a batch while the queue pair closes never touches
 * freed memory: the fill succeeds or throws {@link ClosedResourceException}, and the post refuses.
 */
public final class SendBatch {
    private static final long WR_SIZE = ibv_send_wr.sizeof();
    private static final long SGE_SIZE = ibv_sge.sizeof();
    private static final long RDMA_REMOTE_ADDR = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.rdma.remote_addr$OFFSET;
    private static final long RDMA_RKEY = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.rdma.rkey$OFFSET;
    private static final long ATOMIC_REMOTE_ADDR = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.atomic.remote_addr$OFFSET;
    private static final long ATOMIC_COMPARE_ADD = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.atomic.compare_add$OFFSET;
    private static final long ATOMIC_SWAP = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.atomic.swap$OFFSET;
    private static final long ATOMIC_RKEY = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.atomic.rkey$OFFSET;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final QueuePairHandle qp;
    private final int capacity;
    private final int maxSge;
    private final MemorySegment requests;
    private final MemorySegment sges;
    private final MemorySegment badRequest;
    private int size;

    SendBatch(QueuePairHandle qp, int capacity) {
        WorkRequestChecks.checkCapacity(capacity, qp.maxSendWorkRequests);
        this.qp = qp;
        this.capacity = capacity;
        this.maxSge = qp.maxSendScatterGather;
        Arena arena = Arena.ofAuto();
        this.requests = arena.allocate(ibv_send_wr.layout(), capacity);
        this.sges = arena.allocate(ibv_sge.layout(), (long) capacity * maxSge);
        this.badRequest = arena.allocate(JAVA_LONG);
        for (int i = 0; i < capacity; i++) {
            requests.set(JAVA_LONG, i * WR_SIZE + ibv_send_wr.sg_list$OFFSET, sges.address() + i * maxSge * SGE_SIZE);
        }
    }

    /**
     * Adds an RDMA READ of {@code length} bytes at {@code remoteAddress} into the local range.
     *
     * @param workRequestId the id its completion carries
     * @param local         the local region the data lands in
     * @param localOffset   where in it
     * @param length        how many bytes
     * @param remoteAddress the remote address
     * @param remoteKey     the remote region's rkey
     * @param signaled      whether it produces a completion when it succeeds
     * @return this batch
     */
    public SendBatch read(long workRequestId, MemoryRegion local, long localOffset, int length,
                          long remoteAddress, int remoteKey, boolean signaled) {
        long wr = add(workRequestId, IbVerbs.IBV_WR_RDMA_READ, flags(signaled), local, localOffset, length);
        requests.set(JAVA_LONG, wr + RDMA_REMOTE_ADDR, remoteAddress);
        requests.set(JAVA_INT, wr + RDMA_RKEY, remoteKey);
        return this;
    }

    /**
     * Adds an RDMA WRITE of the local range to {@code remoteAddress}.
     *
     * @param workRequestId the id its completion carries
     * @param local         the local region the data comes from
     * @param localOffset   where in it
     * @param length        how many bytes
     * @param remoteAddress the remote address
     * @param remoteKey     the remote region's rkey
     * @param signaled      whether it produces a completion when it succeeds
     * @return this batch
     */
    public SendBatch write(long workRequestId, MemoryRegion local, long localOffset, int length,
                           long remoteAddress, int remoteKey, boolean signaled) {
        long wr = add(workRequestId, IbVerbs.IBV_WR_RDMA_WRITE, flags(signaled), local, localOffset, length);
        requests.set(JAVA_LONG, wr + RDMA_REMOTE_ADDR, remoteAddress);
        requests.set(JAVA_INT, wr + RDMA_RKEY, remoteKey);
        return this;
    }

    /**
     * Adds an RDMA WRITE whose data is copied into the request at post time
     * ({@code IBV_SEND_INLINE}): the local range may be reused as soon as {@link #post()} returns.
     *
     * @param workRequestId the id its completion carries
     * @param local         the local region the data comes from
     * @param localOffset   where in it
     * @param length        how many bytes, at most {@link ConnectedQueuePair#maxInlineData()}
     * @param remoteAddress the remote address
     * @param remoteKey     the remote region's rkey
     * @param signaled      whether it produces a completion when it succeeds
     * @return this batch
     */
    public SendBatch writeInline(long workRequestId, MemoryRegion local, long localOffset, int length,
                                 long remoteAddress, int remoteKey, boolean signaled) {
        checkInline(length);
        long wr = add(workRequestId, IbVerbs.IBV_WR_RDMA_WRITE, flags(signaled) | IbVerbs.IBV_SEND_INLINE,
                local, localOffset, length);
        requests.set(JAVA_LONG, wr + RDMA_REMOTE_ADDR, remoteAddress);
        requests.set(JAVA_INT, wr + RDMA_RKEY, remoteKey);
        return this;
    }

    /**
     * Adds an RDMA WRITE with immediate data: it also consumes a receive at the peer, whose
     * completion carries {@code immediate}.
     *
     * @param workRequestId the id its completion carries
     * @param local         the local region the data comes from
     * @param localOffset   where in it
     * @param length        how many bytes
     * @param remoteAddress the remote address
     * @param remoteKey     the remote region's rkey
     * @param immediate     32 bits for the peer's receive completion
     * @param signaled      whether it produces a completion when it succeeds
     * @return this batch
     */
    public SendBatch writeWithImmediate(long workRequestId, MemoryRegion local, long localOffset, int length,
                                        long remoteAddress, int remoteKey, int immediate, boolean signaled) {
        long wr = add(workRequestId, IbVerbs.IBV_WR_RDMA_WRITE_WITH_IMM, flags(signaled), local, localOffset, length);
        requests.set(JAVA_LONG, wr + RDMA_REMOTE_ADDR, remoteAddress);
        requests.set(JAVA_INT, wr + RDMA_RKEY, remoteKey);
        requests.set(JAVA_INT, wr + ibv_send_wr.imm_data$OFFSET, networkOrder(immediate));
        return this;
    }

    /**
     * Adds a SEND of the local range; it consumes a receive at the peer.
     *
     * @param workRequestId the id its completion carries
     * @param local         the local region the data comes from
     * @param localOffset   where in it
     * @param length        how many bytes
     * @param signaled      whether it produces a completion when it succeeds
     * @return this batch
     */
    public SendBatch send(long workRequestId, MemoryRegion local, long localOffset, int length, boolean signaled) {
        add(workRequestId, IbVerbs.IBV_WR_SEND, flags(signaled), local, localOffset, length);
        return this;
    }

    /**
     * Adds an inline SEND (the data is copied at post time).
     *
     * @param workRequestId the id its completion carries
     * @param local         the local region the data comes from
     * @param localOffset   where in it
     * @param length        how many bytes, at most {@link ConnectedQueuePair#maxInlineData()}
     * @param signaled      whether it produces a completion when it succeeds
     * @return this batch
     */
    public SendBatch sendInline(long workRequestId, MemoryRegion local, long localOffset, int length, boolean signaled) {
        checkInline(length);
        add(workRequestId, IbVerbs.IBV_WR_SEND, flags(signaled) | IbVerbs.IBV_SEND_INLINE, local, localOffset, length);
        return this;
    }

    /**
     * Adds a SEND with immediate data.
     *
     * @param workRequestId the id its completion carries
     * @param local         the local region the data comes from
     * @param localOffset   where in it
     * @param length        how many bytes
     * @param immediate     32 bits for the peer's receive completion
     * @param signaled      whether it produces a completion when it succeeds
     * @return this batch
     */
    public SendBatch sendWithImmediate(long workRequestId, MemoryRegion local, long localOffset, int length,
                                       int immediate, boolean signaled) {
        long wr = add(workRequestId, IbVerbs.IBV_WR_SEND_WITH_IMM, flags(signaled), local, localOffset, length);
        requests.set(JAVA_INT, wr + ibv_send_wr.imm_data$OFFSET, networkOrder(immediate));
        return this;
    }

    /**
     * Adds an 8-byte compare-and-swap at {@code remoteAddress}: if it holds {@code expected} it
     * becomes {@code desired}. The previous remote value lands in the 8 local bytes.
     *
     * @param workRequestId the id its completion carries
     * @param local         the local region the previous value lands in
     * @param localOffset   where in it (8 bytes)
     * @param remoteAddress the remote address, 8-byte aligned
     * @param remoteKey     the remote region's rkey
     * @param expected      the value to compare with
     * @param desired       the value to store on a match
     * @param signaled      whether it produces a completion when it succeeds
     * @return this batch
     */
    public SendBatch compareAndSwap(long workRequestId, MemoryRegion local, long localOffset, long remoteAddress,
                                    int remoteKey, long expected, long desired, boolean signaled) {
        WorkRequestChecks.checkAtomicAlignment(remoteAddress);
        long wr = add(workRequestId, IbVerbs.IBV_WR_ATOMIC_CMP_AND_SWP, flags(signaled), local, localOffset, 8);
        requests.set(JAVA_LONG, wr + ATOMIC_REMOTE_ADDR, remoteAddress);
        requests.set(JAVA_LONG, wr + ATOMIC_COMPARE_ADD, expected);
        requests.set(JAVA_LONG, wr + ATOMIC_SWAP, desired);
        requests.set(JAVA_INT, wr + ATOMIC_RKEY, remoteKey);
        return this;
    }

    /**
     * Adds an 8-byte fetch-and-add at {@code remoteAddress}. The previous remote value lands in
     * the 8 local bytes.
     *
     * @param workRequestId the id its completion carries
     * @param local         the local region the previous value lands in
     * @param localOffset   where in it (8 bytes)
     * @param remoteAddress the remote address, 8-byte aligned
     * @param remoteKey     the remote region's rkey
     * @param delta         what to add
     * @param signaled      whether it produces a completion when it succeeds
     * @return this batch
     */
    public SendBatch fetchAndAdd(long workRequestId, MemoryRegion local, long localOffset, long remoteAddress,
                                 int remoteKey, long delta, boolean signaled) {
        WorkRequestChecks.checkAtomicAlignment(remoteAddress);
        long wr = add(workRequestId, IbVerbs.IBV_WR_ATOMIC_FETCH_AND_ADD, flags(signaled), local, localOffset, 8);
        requests.set(JAVA_LONG, wr + ATOMIC_REMOTE_ADDR, remoteAddress);
        requests.set(JAVA_LONG, wr + ATOMIC_COMPARE_ADD, delta);
        requests.set(JAVA_INT, wr + ATOMIC_RKEY, remoteKey);
        return this;
    }

    /**
     * Adds a gather entry to the request added last (not to atomics, which take exactly 8 bytes).
     *
     * @param local       the local region
     * @param localOffset where in it
     * @param length      how many bytes
     * @return this batch
     * @throws InvalidArgumentException if there is no request, it is an atomic, or it has the
     *                                  queue pair's maximum of entries
     */
    public SendBatch gather(MemoryRegion local, long localOffset, int length) {
        qp.requireOpen();
        if (size == 0) {
            throw new InvalidArgumentException("add a request before its gather entries");
        }
        int i = size - 1;
        long wr = i * WR_SIZE;
        int opcode = requests.get(JAVA_INT, wr + ibv_send_wr.opcode$OFFSET);
        if (opcode == IbVerbs.IBV_WR_ATOMIC_CMP_AND_SWP || opcode == IbVerbs.IBV_WR_ATOMIC_FETCH_AND_ADD) {
            throw new InvalidArgumentException("atomics take exactly one 8-byte local entry");
        }
        WorkRequestChecks.checkLength(length, qp.maxMessageSize);
        WorkRequestChecks.checkRegion(local, qp.pd);
        int n = requests.get(JAVA_INT, wr + ibv_send_wr.num_sge$OFFSET);
        WorkRequestChecks.checkSgeRoom(n, maxSge);
        if ((requests.get(JAVA_INT, wr + ibv_send_wr.send_flags$OFFSET) & IbVerbs.IBV_SEND_INLINE) != 0) {
            checkInline(totalLength(i) + length);
        }
        addSge(i, n, local.checkRange(localOffset, length), length, local.localKey());
        return this;
    }

    /**
     * Fences the request added last ({@code IBV_SEND_FENCE}): the device starts it only after
     * every earlier RDMA READ and atomic on this queue pair has completed.
     *
     * @return this batch
     * @throws InvalidArgumentException if no request has been added since the last post
     */
    public SendBatch fence() {
        if (size == 0) {
            throw new InvalidArgumentException("add a request before fencing it");
        }
        long flags = (size - 1) * WR_SIZE + ibv_send_wr.send_flags$OFFSET;
        requests.set(JAVA_INT, flags, requests.get(JAVA_INT, flags) | IbVerbs.IBV_SEND_FENCE);
        return this;
    }

    /** {@return how many requests are waiting to be posted} */
    public int size() {
        return size;
    }

    /** {@return how many requests one post may carry} */
    public int capacity() {
        return capacity;
    }

    /**
     * Drops the requests added since the last post.
     *
     * @return this batch
     */
    public SendBatch clear() {
        size = 0;
        return this;
    }

    /**
     * Links the requests into a chain and posts it with one {@code post_send}; empties the batch.
     *
     * @return how many requests were posted
     * @throws PostException           if the provider rejected a request (it names which; the ones
     *                                 before it were posted)
     * @throws ClosedResourceException if the queue pair is closed
     */
    public int post() {
        int n = size;
        if (n == 0) {
            return 0;
        }
        qp.enter();
        try {
            size = 0;
            int rc = IbVerbs.ibv_post_send(qp.postSendFunction, qp.qp, requests, badRequest);
            if (rc != 0) {
                int failed = ReceiveBatch.failedIndex(badRequest.get(JAVA_LONG, 0), requests.address(), WR_SIZE, n);
                throw new PostException("ibv_post_send", rc, failed, "send request " + failed + " of " + n + " (wr_id "
                        + requests.get(JAVA_LONG, failed * WR_SIZE) + ") was rejected; the ones before it were posted");
            }
            return n;
        } finally {
            qp.exit();
        }
    }

    private long add(long workRequestId, int opcode, int sendFlags, MemoryRegion local, long localOffset, int length) {
        qp.requireOpen();
        WorkRequestChecks.checkRoom(size, capacity);
        WorkRequestChecks.checkLength(length, qp.maxMessageSize);
        WorkRequestChecks.checkRegion(local, qp.pd);
        long address = local.checkRange(localOffset, length);
        int i = size;
        long wr = i * WR_SIZE;
        requests.set(JAVA_LONG, wr + ibv_send_wr.wr_id$OFFSET, workRequestId);
        requests.set(JAVA_LONG, wr + ibv_send_wr.next$OFFSET, 0L);
        requests.set(JAVA_INT, wr + ibv_send_wr.num_sge$OFFSET, 0);
        requests.set(JAVA_INT, wr + ibv_send_wr.opcode$OFFSET, opcode);
        requests.set(JAVA_INT, wr + ibv_send_wr.send_flags$OFFSET, sendFlags);
        requests.set(JAVA_INT, wr + ibv_send_wr.imm_data$OFFSET, 0);
        if (i > 0) {
            requests.set(JAVA_LONG, wr - WR_SIZE + ibv_send_wr.next$OFFSET, requests.address() + wr);
        }
        if (length > 0) {
            addSge(i, 0, address, length, local.localKey());
        }
        size = i + 1;
        return wr;
    }

    private void addSge(int request, int index, long address, int length, int lkey) {
        long sge = ((long) request * maxSge + index) * SGE_SIZE;
        sges.set(JAVA_LONG, sge + ibv_sge.addr$OFFSET, address);
        sges.set(JAVA_INT, sge + ibv_sge.length$OFFSET, length);
        sges.set(JAVA_INT, sge + ibv_sge.lkey$OFFSET, lkey);
        requests.set(JAVA_INT, request * WR_SIZE + ibv_send_wr.num_sge$OFFSET, index + 1);
    }

    private int totalLength(int request) {
        int n = requests.get(JAVA_INT, request * WR_SIZE + ibv_send_wr.num_sge$OFFSET);
        int total = 0;
        for (int k = 0; k < n; k++) {
            total += sges.get(JAVA_INT, ((long) request * maxSge + k) * SGE_SIZE + ibv_sge.length$OFFSET);
        }
        return total;
    }

    private void checkInline(int length) {
        if (length < 0 || length > qp.maxInlineData) {
            throw new InvalidArgumentException("inline data must be in [0, " + qp.maxInlineData + "] bytes, got " + length);
        }
    }

    private static int flags(boolean signaled) {
        return signaled ? IbVerbs.IBV_SEND_SIGNALED : 0;
    }

    private static int networkOrder(int value) {
        return LITTLE_ENDIAN ? Integer.reverseBytes(value) : value;
    }
}
