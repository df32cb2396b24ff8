package io.remus.verbs;

import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.ffi.ibv_recv_wr;
import io.remus.verbs.ffi.ibv_sge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable flyweight over a preallocated chain of native receive requests
 * ({@code struct ibv_recv_wr[]} and their {@code struct ibv_sge[]}) of a queue pair or shared
 * receive queue. Add requests, then {@link #post()} them with one {@code post_recv} call.
 * Filling and posting allocate nothing; every argument is checked first. One thread at a time.
 *
 * <p>{@link #post()} is safe against closing the queue on another thread: the close waits for a
 * post in flight to return before it destroys the queue, and a post that starts after the close
 * began throws {@link ClosedResourceException} without calling the provider. The batch's own requests
 * live in memory of its own (an automatic arena, freed once the batch is unreachable), not the queue's,
 * so filling a batch while the queue closes never touches freed memory.
 */
public final class ReceiveBatch {
    private static final long WR_SIZE = ibv_recv_wr.sizeof();
    private static final long SGE_SIZE = ibv_sge.sizeof();

    private final NativeResource owner;
    private final MemorySegment target;
    private final MemorySegment postFunction;
    private final boolean shared;
    private final int capacity;
    private final int maxSge;
    private final ProtectionDomain pd;
    private final long maxMessageSize;
    private final MemorySegment requests;
    private final MemorySegment sges;
    private final MemorySegment badRequest;
    private int size;

    ReceiveBatch(NativeResource owner, MemorySegment target, MemorySegment postFunction, boolean shared, int capacity,
                 int maxRequests, int maxSge, ProtectionDomain pd, long maxMessageSize) {
        WorkRequestChecks.checkCapacity(capacity, maxRequests);
        this.owner = owner;
        this.target = target;
        this.postFunction = postFunction;
        this.shared = shared;
        this.capacity = capacity;
        this.maxSge = maxSge;
        this.pd = pd;
        this.maxMessageSize = maxMessageSize;
        Arena arena = Arena.ofAuto();
        this.requests = arena.allocate(ibv_recv_wr.layout(), capacity);
        this.sges = arena.allocate(ibv_sge.layout(), (long) capacity * maxSge);
        this.badRequest = arena.allocate(JAVA_LONG);
        for (int i = 0; i < capacity; i++) {
            requests.set(JAVA_LONG, i * WR_SIZE + ibv_recv_wr.sg_list$OFFSET, sges.address() + i * maxSge * SGE_SIZE);
        }
    }

    /**
     * Adds a receive into {@code [offset, offset + length)} of {@code region}.
     *
     * @param workRequestId the id its completion carries
     * @param region        the local region
     * @param offset        where in the region
     * @param length        the most bytes it accepts (0 for a message without payload)
     * @return this batch
     * @throws InvalidArgumentException if the batch is full or the range is bad
     * @throws ClosedResourceException  if the queue or region is closed
     */
    public ReceiveBatch receive(long workRequestId, MemoryRegion region, long offset, int length) {
        owner.requireOpen();
        WorkRequestChecks.checkRoom(size, capacity);
        WorkRequestChecks.checkLength(length, maxMessageSize);
        WorkRequestChecks.checkRegion(region, pd);
        long address = region.checkRange(offset, length);
        int i = size;
        long wr = i * WR_SIZE;
        requests.set(JAVA_LONG, wr + ibv_recv_wr.wr_id$OFFSET, workRequestId);
        requests.set(JAVA_LONG, wr + ibv_recv_wr.next$OFFSET, 0L);
        requests.set(JAVA_INT, wr + ibv_recv_wr.num_sge$OFFSET, 0);
        if (i > 0) {
            requests.set(JAVA_LONG, wr - WR_SIZE + ibv_recv_wr.next$OFFSET, requests.address() + wr);
        }
        size = i + 1;
        if (length > 0) {
            addSge(i, address, length, region.localKey());
        }
        return this;
    }

    /**
     * Adds a scatter entry to the request added last.
     *
     * @param region the local region
     * @param offset where in the region
     * @param length how many bytes
     * @return this batch
     * @throws InvalidArgumentException if there is no request, or it has the queue's maximum of entries
     */
    public ReceiveBatch scatter(MemoryRegion region, long offset, int length) {
        owner.requireOpen();
        if (size == 0) {
            throw new InvalidArgumentException("add a receive before its scatter entries");
        }
        WorkRequestChecks.checkLength(length, maxMessageSize);
        WorkRequestChecks.checkRegion(region, pd);
        int i = size - 1;
        WorkRequestChecks.checkSgeRoom(requests.get(JAVA_INT, i * WR_SIZE + ibv_recv_wr.num_sge$OFFSET), maxSge);
        addSge(i, region.checkRange(offset, length), length, region.localKey());
        return this;
    }

    private void addSge(int request, long address, int length, int lkey) {
        long wr = request * WR_SIZE;
        int n = requests.get(JAVA_INT, wr + ibv_recv_wr.num_sge$OFFSET);
        long sge = ((long) request * maxSge + n) * SGE_SIZE;
        sges.set(JAVA_LONG, sge + ibv_sge.addr$OFFSET, address);
        sges.set(JAVA_INT, sge + ibv_sge.length$OFFSET, length);
        sges.set(JAVA_INT, sge + ibv_sge.lkey$OFFSET, lkey);
        requests.set(JAVA_INT, wr + ibv_recv_wr.num_sge$OFFSET, n + 1);
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
    public ReceiveBatch clear() {
        size = 0;
        return this;
    }

    /**
     * Posts the chain with one {@code post_recv} (or {@code post_srq_recv}) and empties the batch.
     *
     * @return how many requests were posted
     * @throws PostException           if the provider rejected a request (it names which)
     * @throws ClosedResourceException if the queue is closed
     */
    public int post() {
        int n = size;
        if (n == 0) {
            return 0;
        }
        owner.enter();
        try {
            size = 0;
            int rc = shared
                    ? IbVerbs.ibv_post_srq_recv(postFunction, target, requests, badRequest)
                    : IbVerbs.ibv_post_recv(postFunction, target, requests, badRequest);
            if (rc != 0) {
                int failed = failedIndex(badRequest.get(JAVA_LONG, 0), requests.address(), WR_SIZE, n);
                throw new PostException(shared ? "ibv_post_srq_recv" : "ibv_post_recv", rc, failed,
                        "receive request " + failed + " of " + n + " (wr_id " + requests.get(JAVA_LONG, failed * WR_SIZE)
                                + ") was rejected; the ones before it were posted");
            }
            return n;
        } finally {
            owner.exit();
        }
    }

    /**
     * @param bad     the {@code bad_wr} pointer the provider returned
     * @param base    the chain's first request
     * @param wrSize  the size of one request
     * @param n       the chain's length
     * @return the failing request's index (0 when the pointer is outside the chain)
     */
    static int failedIndex(long bad, long base, long wrSize, int n) {
        long index = (bad - base) / wrSize;
        return bad < base || index >= n ? 0 : (int) index;
    }
}
