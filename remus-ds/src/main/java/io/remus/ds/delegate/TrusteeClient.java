package io.remus.ds.delegate;

import io.remus.core.ComputeThread;
import io.remus.core.DoorbellBatch;
import io.remus.core.WriteOrder;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Objects;

import static io.remus.ds.delegate.Trustee.WORD;

/**
 * One client thread's place at a {@link Trustee}: its request slots in the trustee's block and its
 * response block on its own node, from which it makes {@link Trust} handles for the trustee's
 * properties. Confined to the owner of its compute thread. The transport is ffwd's (Roghanchi et al.,
 * SOSP 2017) over one-sided RDMA; see {@link Trustee} for the layout. The response block is on the
 * client's node when that node has memory (the trustee WRITEs responses there and the client polls
 * them with CPU loads), else on the trustee's node (the trustee stores them with the CPU and the client
 * polls them with RDMA READs).
 *
 * <h2>Costs</h2>
 * {@link #connect}: an RDMA READ of the trustee's shape, a fetch-and-add of its claims word, the
 * allocation of the response block (and, on a node without memory, its zeroing by RDMA WRITEs), a compare-and-swap of the client's registration
 * word and a READ of the trustee's state (4 round trips plus the allocator's; a client on the trustee's
 * node reads with the CPU: 2 plus the allocator's).
 * A request from a client on another node than the trustee's: its staged requests go out as two RDMA
 * WRITEs each (body, then sequence word: the library's ordering rule for WRITEs, docs/DATA-STRUCTURES.md)
 * in one doorbell batch per {@code wrsPerBatch / 2} requests ({@link #flush()}), one round
 * trip per batch; the response lands in this node's memory and is polled with CPU loads of its sequence
 * and check words. So a remote
 * {@link Trust#apply} is <b>2 WRITEs, 0 READs, 1 round trip</b>, and {@code k} requests flushed
 * together are {@code 2k} WRITEs in 1 round trip for {@code k <= wrsPerBatch / 2}. A client that
 * connected with {@link WriteOrder#COMPLETION} sends the bodies of a batch, awaits them, then their
 * sequence words: 2 round trips per batch. A client on the
 * trustee's node stores its requests with the CPU and polls with the CPU: <b>no RDMA operation</b>.
 * A client on a node without memory polls the sequence and closed words of its response slot with one
 * 16-byte RDMA READ per poll and, once the sequence matches, reads result and status with one more
 * 16-byte READ: its apply is <b>2 WRITEs and {@code k + 1} READs in {@code k + 2} round trips</b> for
 * {@code k} polls (at least 1). Such a client learns of a close from its slot's closed word.
 *
 * <p>A payload request ({@link Trust#apply(int, MemorySegment, MemorySegment, Duration)}) costs the same
 * operations: its bytes ride in the first WRITE, and on a node without memory the READ of the result
 * also fetches the response's {@code payloadBytes}.
 *
 * <p>The client uses its compute thread's {@link ComputeThread#buffer()} bytes
 * {@code [0, (32 + payloadBytes) * min(slots, wrsPerBatch / 2))} while {@link #flush()} runs, and no
 * buffer bytes otherwise, and bytes {@code [0, 16 + payloadBytes)} while it reads a response from the
 * trustee's memory. The response
 * block is never freed (the trustee may still write to it). The client's place at the trustee is never
 * given back (the trustee's {@code maxClients} bounds all clients over its life).
 */
public final class TrusteeClient implements AutoCloseable {
    private final ComputeThread thread;
    private final long trustee;
    private final int index;
    private final int slots;
    private final int payloadBytes;
    private final long requestBytes;
    private final long requestSequence;
    private final long requestCheck;
    private final WriteOrder order;
    private long orderViolations;
    private boolean guarded = true;
    private final MemorySegment localRequests;
    private final long requests;
    private final long responsePtr;
    private final MemorySegment responses;
    private final PendingApply[] pending;
    private final int[] staged;
    private final int batchRequests;
    private int stagedCount;
    private boolean closed;

    private TrusteeClient(ComputeThread thread, long trustee, int index, SlotLayout layout, long responsePtr,
                          MemorySegment responses, MemorySegment localRequests, WriteOrder order) {
        this.thread = thread;
        this.order = order;
        this.trustee = trustee;
        this.index = index;
        this.slots = layout.slots();
        this.payloadBytes = layout.payloadBytes();
        this.requestBytes = layout.requestBytes();
        this.requestSequence = layout.sequence();
        this.requestCheck = layout.check();
        this.requests = trustee + Trustee.HEADER_BYTES + index * layout.clientBytes() + 8;
        this.responsePtr = responsePtr;
        this.responses = responses;
        this.localRequests = localRequests;
        this.pending = new PendingApply[slots];
        for (int s = 0; s < slots; s++) {
            pending[s] = new PendingApply(this, layout, s);
        }
        this.staged = new int[slots];
        this.batchRequests = (int) Math.max(1, Math.min(thread.config().wrsPerBatch() / 2,
                thread.buffer().byteSize() / requestBytes));
    }

    /**
     * Joins the trustee at {@code trusteePtr}: takes a client place, allocates this client's response
     * block on its node and registers it (costs in the class comment).
     *
     * @param thread     this client's compute thread, on any node
     * @param trusteePtr {@link Trustee#ptr()}
     * @return the client
     * @throws BadArgumentException     when every client place is taken
     * @throws CorruptedMemoryException when {@code trusteePtr} holds no trustee
     * @throws TrusteeClosedException   when the trustee is closed
     */
    public static TrusteeClient connect(ComputeThread thread, long trusteePtr) {
        return connect(thread, trusteePtr, WriteOrder.ONE_DOORBELL);
    }

    /**
     * Joins the trustee at {@code trusteePtr}, writing requests in {@code order}; otherwise as
     * {@link #connect(ComputeThread, long)}. With {@link WriteOrder#COMPLETION} a {@link #flush()} of
     * {@code k <= wrsPerBatch / 2} requests sends their bodies, awaits them, then sends their sequence words:
     * 2 round trips instead of 1.
     *
     * @param thread     this client's compute thread, on any node
     * @param trusteePtr {@link Trustee#ptr()}
     * @param order      how a request's body WRITE and its sequence WRITE are ordered
     * @return the client
     * @throws BadArgumentException     when every client place is taken (the trustee's {@code maxClients}
     *                                  counts every connect over its life; the message names the value)
     * @throws CorruptedMemoryException when {@code trusteePtr} holds no trustee
     * @throws TrusteeClosedException   when the trustee is closed
     */
    public static TrusteeClient connect(ComputeThread thread, long trusteePtr, WriteOrder order) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(order, "order");
        boolean local = RemotePtr.node(trusteePtr) == thread.nodeId();
        long shape = thread.read(trusteePtr + Trustee.SHAPE);
        int maxClients = (int) ((shape >>> 16) & 0xFFFF);
        int slots = (int) (shape & 0xFFFF);
        int payloadBytes = (int) ((shape >>> 32) & 0xFFFF) * 8;
        if (shape >>> 48 != Trustee.MAGIC || maxClients < 1 || maxClients > Trustee.MAX_CLIENTS || slots < 1
                || slots > Trustee.MAX_SLOTS_PER_CLIENT || payloadBytes > Trustee.MAX_PAYLOAD_BYTES) {
            throw new CorruptedMemoryException(trusteePtr, shape, RemotePtr.toString(trusteePtr) + " holds no trustee (shape 0x"
                    + Long.toHexString(shape) + ")");
        }
        SlotLayout layout = new SlotLayout(slots, payloadBytes);
        if (thread.buffer().byteSize() < layout.requestBytes()) {
            throw new BadArgumentException("compute thread buffer of " + thread.buffer().byteSize() + " bytes cannot stage one "
                    + layout.requestBytes() + "-byte request of trustee " + RemotePtr.toString(trusteePtr));
        }
        long index = thread.fetchAndAdd(trusteePtr + Trustee.CLAIMS, 1);
        if (index >= maxClients) {
            throw new BadArgumentException("trustee " + RemotePtr.toString(trusteePtr) + " has all " + maxClients
                    + " client places taken (this is connect number " + (index + 1) + "): it was created with maxClients = "
                    + maxClients + ", which bounds the clients that ever connect, since each takes a place for good, a"
                    + " closed one too. Create it with maxClients at least the number of connects over its life");
        }
        long bytes = layout.responseBlockBytes();
        boolean ownMemory = thread.config().memoryNodes().contains(thread.nodeId());
        int responseNode = ownMemory ? thread.nodeId() : RemotePtr.node(trusteePtr);
        long responsePtr = thread.allocator().allocate(bytes, responseNode);
        MemorySegment responses = null;
        if (ownMemory) {
            responses = thread.localSegment(responsePtr, bytes);
            responses.fill((byte) 0);
        } else {
            zero(thread, responsePtr, bytes);
        }
        VarHandle.releaseFence();
        long registration = trusteePtr + Trustee.HEADER_BYTES + index * layout.clientBytes();
        thread.compareAndSwap(registration, 0, responsePtr);
        MemorySegment localRequests = local
                ? thread.localSegment(registration + 8, slots * layout.requestBytes())
                : null;
        TrusteeClient client = new TrusteeClient(thread, trusteePtr, (int) index, layout, responsePtr, responses, localRequests,
                order);
        if (thread.read(trusteePtr + Trustee.STATE) != 0) {
            throw new TrusteeClosedException("trustee " + RemotePtr.toString(trusteePtr) + " is closed");
        }
        return client;
    }

    /**
     * A handle to one of the trustee's properties. No RDMA; the id is checked by the trustee when a
     * request names it.
     *
     * @param propertyId an id {@link Trustee#entrust} returned, not negative
     * @param <T>        the property's type on the trustee (not checked here: the client never holds it)
     * @return the handle
     * @throws BadArgumentException   naming the id, when it is negative
     * @throws TrusteeClosedException when this client is closed
     */
    public <T> Trust<T> trust(int propertyId) {
        requireOpen();
        if (propertyId < 0) {
            throw new BadArgumentException("propertyId must not be negative, got " + propertyId);
        }
        return new Trust<>(this, propertyId, false);
    }

    /**
     * A handle to one of the trustee's properties that holds a reference to it, so that the trustee keeps the
     * property until the handle's {@link Trust#release}: one request the trustee serves (from another node
     * than the trustee's, 2 WRITEs and 1 round trip; from its node, none). Blocking, with the caller's
     * deadline; it takes effect when the trustee serves it.
     *
     * @param propertyId an id {@link Trustee#entrust} returned, not negative
     * @param timeout    how long to wait for a free slot and the trustee's answer, not negative
     * @param <T>        the property's type on the trustee
     * @return the handle
     * @throws BadArgumentException        naming the value, for a negative id or timeout
     * @throws DelegatedOperationException when the trustee holds no such property, or it was released
     * @throws TrusteeTimeoutException     when the trustee did not answer by the deadline (the reference may
     *                                     have been taken: the property then stays until the trustee closes)
     * @throws TrusteeClosedException      when the trustee is or becomes closed before answering, or this client
     *                                     is closed
     */
    public <T> Trust<T> share(int propertyId, Duration timeout) {
        if (propertyId < 0) {
            throw new BadArgumentException("propertyId must not be negative, got " + propertyId);
        }
        long deadline = PendingApply.deadline(timeout);
        stage(propertyId, Trustee.RETAIN, 0, deadline, true).awaitUntil(deadline, timeout);
        return new Trust<>(this, propertyId, true);
    }

    /** {@return the trustee's block} */
    public long trustee() {
        return trustee;
    }

    /** {@return this client's place at the trustee, from 0} */
    public int index() {
        return index;
    }

    /** {@return how many requests this client may have in flight} */
    public int slots() {
        return slots;
    }

    /** {@return the largest payload of a request or response at this client's trustee; 0 when it carries none} */
    public int payloadBytes() {
        return payloadBytes;
    }

    /** {@return how this client orders a request's body WRITE and its sequence WRITE} */
    public WriteOrder writeOrder() {
        return order;
    }

    /**
     * {@return how many polls found a response slot's new sequence word beside an old check word: the
     *         trustee's two WRITEs landed out of order, and the poll answered "not yet" instead of reading a
     *         stale response}
     */
    public long orderViolations() {
        return orderViolations;
    }

    /**
     * Whether a response slot whose sequence word holds {@code sequence} holds that response's body too (its
     * check word, the body WRITE's last word, holds the same sequence); counts the event when it does not.
     */
    boolean responseLanded(long check, long sequence) {
        if (check == sequence || !guarded) {
            return true;
        }
        orderViolations++;
        return false;
    }

    /** For tests only: makes this client a broken twin that takes a response as soon as its sequence is there. */
    void dropGuard() {
        guarded = false;
    }

    /** {@return the compute thread} */
    public ComputeThread thread() {
        return thread;
    }

    /**
     * Whether the trustee is closed: a CPU load of the closed mark in this client's response block, or,
     * for a client on a node without memory, one RDMA READ of the trustee's state word.
     *
     * @return whether the trustee closed
     */
    public boolean isTrusteeClosed() {
        if (responses == null) {
            return thread.read(trustee + Trustee.STATE) != 0;
        }
        return closedMark();
    }

    /** {@return whether the closed mark is in this client's own memory and set; false without memory} */
    boolean closedMark() {
        return responses != null && (long) WORD.getVolatile(responses, 0L) != 0;
    }

    /** {@return whether the responses are in the trustee's memory, polled by RDMA READs} */
    boolean remoteResponses() {
        return responses == null;
    }

    private static void zero(ComputeThread thread, long ptr, long bytes) {
        long chunk = Math.min(4096, thread.buffer().byteSize());
        MemorySegment zeros = MemorySegment.ofArray(new byte[(int) chunk]);
        for (long done = 0; done < bytes; done += chunk) {
            thread.write(ptr + done, zeros.asSlice(0, Math.min(chunk, bytes - done)));
        }
    }

    /**
     * Posts every staged request (see the class comment for the costs). Blocking until the WRITEs
     * completed, bounded by the compute thread's operation timeout.
     *
     * @throws TrusteeClosedException when this client is closed
     */
    public void flush() {
        thread.checkOwnerThread();
        requireOpen();
        if (stagedCount == 0) {
            return;
        }
        MemorySegment buffer = thread.buffer();
        for (int from = 0; from < stagedCount; from += batchRequests) {
            int to = Math.min(stagedCount, from + batchRequests);
            for (int i = from; i < to; i++) {
                PendingApply p = pending[staged[i]];
                long staging = (i - from) * requestBytes;
                int length = p.request == null ? 0 : (int) p.request.byteSize();
                buffer.set(ValueLayout.JAVA_LONG, staging + Trustee.REQUEST_OP, p.head());
                buffer.set(ValueLayout.JAVA_LONG, staging + Trustee.REQUEST_ARG, p.arg);
                if (length > 0) {
                    MemorySegment.copy(p.request, 0, buffer, staging + Trustee.REQUEST_PAYLOAD, length);
                }
                Trustee.zeroTail(buffer, staging + Trustee.REQUEST_PAYLOAD + length, staging + requestCheck);
                buffer.set(ValueLayout.JAVA_LONG, staging + requestCheck, p.sequence);
                buffer.set(ValueLayout.JAVA_LONG, staging + requestSequence, p.sequence);
                p.request = null;
                p.state = PendingApply.State.POSTED;
            }
            DoorbellBatch batch = thread.batch();
            for (int i = from; i < to; i++) {
                long staging = (i - from) * requestBytes;
                long slot = requests + pending[staged[i]].slot * requestBytes;
                batch.write(slot, staging, (int) requestSequence);
                if (order == WriteOrder.ONE_DOORBELL) {
                    batch.write(slot + requestSequence, staging + requestSequence, 8);
                }
            }
            batch.execute();
            if (order == WriteOrder.COMPLETION) {
                for (int i = from; i < to; i++) {
                    long staging = (i - from) * requestBytes;
                    long slot = requests + pending[staged[i]].slot * requestBytes;
                    batch.write(slot + requestSequence, staging + requestSequence, 8);
                }
                batch.execute();
            }
        }
        stagedCount = 0;
    }

    /** Requests this client staged so far: their order, which the trustee keeps when it serves them. */
    private int issued;

    /**
     * Takes a free slot for a request, waiting until {@code deadline} for one whose earlier request was
     * abandoned to be answered.
     */
    PendingApply stage(int propertyId, int opId, long arg, long deadline, boolean wait) {
        return stage(propertyId, opId, arg, null, null, deadline, wait);
    }

    /**
     * As {@link #stage(int, int, long, long, boolean)}, for a payload request when {@code request} is not
     * null: its bytes go with the request, and the response's into {@code response}.
     */
    PendingApply stage(int propertyId, int opId, long arg, MemorySegment request, MemorySegment response, long deadline,
                       boolean wait) {
        thread.checkOwnerThread();
        requireOpen();
        if (closedMark()) {
            throw new TrusteeClosedException("trustee " + RemotePtr.toString(trustee) + " is closed; refused op " + opId
                    + " on property " + propertyId);
        }
        int spins = 0;
        while (true) {
            for (int s = 0; s < slots; s++) {
                PendingApply p = pending[s];
                if (p.state == PendingApply.State.ABANDONED && p.answered()) {
                    p.state = PendingApply.State.FREE;
                }
                if (p.state == PendingApply.State.FREE) {
                    p.start(propertyId, opId, arg, issued++, request, response);
                    if (localRequests != null) {
                        long slot = s * requestBytes;
                        localRequests.set(ValueLayout.JAVA_LONG, slot + Trustee.REQUEST_OP, p.head());
                        localRequests.set(ValueLayout.JAVA_LONG, slot + Trustee.REQUEST_ARG, arg);
                        if (request != null) {
                            MemorySegment.copy(request, 0, localRequests, slot + Trustee.REQUEST_PAYLOAD, request.byteSize());
                            p.request = null;
                        }
                        localRequests.set(ValueLayout.JAVA_LONG, slot + requestCheck, p.sequence);
                        WORD.setRelease(localRequests, slot + requestSequence, p.sequence);
                        p.state = PendingApply.State.POSTED;
                    } else {
                        staged[stagedCount++] = s;
                        p.state = PendingApply.State.STAGED;
                    }
                    return p;
                }
            }
            if (!wait) {
                throw new BadArgumentException("all " + slots + " request slots of client " + index + " of trustee "
                        + RemotePtr.toString(trustee) + " are in flight");
            }
            if (ThreadTime.nanoTime() - deadline >= 0) {
                throw new TrusteeTimeoutException("no request slot of client " + index + " of trustee "
                        + RemotePtr.toString(trustee) + " came free for op " + opId + " on property " + propertyId
                        + " by the deadline: the trustee answers nothing");
            }
            if (closedMark()) {
                throw new TrusteeClosedException("trustee " + RemotePtr.toString(trustee) + " is closed; refused op " + opId
                        + " on property " + propertyId);
            }
            spins = PendingApply.backOff(spins);
        }
    }

    /**
     * Closes this client: the requests it staged and has not sent are dropped (they never reach the trustee), and
     * later calls of this client, of its {@link Trust} handles and of its {@link PendingApply} requests throw
     * {@link TrusteeClosedException}. A request already sent may still run at the trustee. No RDMA; idempotent.
     * The client's place at the trustee and its response block stay taken, as the class says (the trustee may
     * still write responses there).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < stagedCount; i++) {
            pending[staged[i]].request = null;
        }
        stagedCount = 0;
    }

    /** {@return whether {@link #close()} was called} */
    public boolean isClosed() {
        return closed;
    }

    /** Throws {@link TrusteeClosedException} when this client is closed. */
    void requireOpen() {
        if (closed) {
            throw new TrusteeClosedException("client " + index + " of trustee " + RemotePtr.toString(trustee) + " is closed");
        }
    }

    MemorySegment responses() {
        return responses;
    }

    long responsePtr() {
        return responsePtr;
    }
}
