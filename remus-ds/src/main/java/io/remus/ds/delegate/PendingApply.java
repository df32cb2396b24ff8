package io.remus.ds.delegate;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.StaleHandleException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Objects;

import static io.remus.ds.delegate.Trustee.WORD;

/**
 * A delegated request in flight ({@link Trust#applyAsync}): one of its client's request slots. The
 * object is the slot's and is reused by the slot's next request, so it is valid from
 * {@link Trust#applyAsync} until {@link #await} returns or throws; after that it throws
 * {@link StaleHandleException} (until the slot carries a new request). Confined to the client's thread.
 * Polling costs no RDMA where the response lands in the client's own memory, and one RDMA READ per poll
 * (one more to fetch the result) for a client on a node without memory (see {@link TrusteeClient}).
 */
public final class PendingApply {
    enum State { FREE, STAGED, POSTED, ABANDONED }

    private final TrusteeClient client;
    final int slot;
    private final long responseOffset;
    private final long responseSequence;
    private final long responseCheck;
    private final int payloadBytes;
    State state = State.FREE;
    long sequence;
    int propertyId;
    int opId;
    long arg;
    /** The client's count of requests before this one, modulo 2<sup>16</sup>: the trustee serves a client's requests in this order. */
    int issue;
    /** A payload request's bytes until they are sent; null for a word request. */
    MemorySegment request;
    /** Where a payload request's response goes; null for a word request. */
    private MemorySegment response;

    PendingApply(TrusteeClient client, SlotLayout layout, int slot) {
        this.client = client;
        this.slot = slot;
        this.payloadBytes = layout.payloadBytes();
        this.responseOffset = Trustee.RESPONSE_HEADER_BYTES + slot * layout.responseBytes();
        this.responseSequence = layout.sequence();
        this.responseCheck = layout.check();
    }

    void start(int propertyId, int opId, long arg, int issue, MemorySegment request, MemorySegment response) {
        this.issue = issue & 0xFFFF;
        this.propertyId = propertyId;
        this.opId = opId;
        this.arg = arg;
        this.request = request;
        this.response = response;
        this.sequence++;
    }

    /** {@return the request's first word, with the payload flag for a payload request} */
    long head() {
        return Trustee.requestHead(issue, opId, propertyId) | (response != null ? Trustee.PAYLOAD_FLAG : 0);
    }

    /**
     * Whether the response arrived: CPU loads of the slot's sequence and check words (a sequence without its
     * check is counted by {@link TrusteeClient#orderViolations()} and is no answer yet), or for responses in
     * the trustee's memory, which it stores with the CPU, one 16-byte RDMA READ of the slot's sequence and
     * closed words (the closed word lands in the buffer's word 1).
     */
    boolean answered() {
        if (client.remoteResponses()) {
            client.thread().read(client.responsePtr() + responseOffset + responseSequence, 0, 16);
            return client.thread().buffer().get(ValueLayout.JAVA_LONG, 0) == sequence;
        }
        if ((long) WORD.getAcquire(client.responses(), responseOffset + responseSequence) != sequence) {
            return false;
        }
        return client.responseLanded((long) WORD.getAcquire(client.responses(), responseOffset + responseCheck), sequence);
    }

    /** {@return the operation id of this request} */
    public int opId() {
        return opId;
    }

    /** {@return the property id of this request} */
    public int propertyId() {
        return propertyId;
    }

    /**
     * Whether the response has arrived; posts the client's staged requests first if this one is among
     * them. Wait-free apart from that flush; a CPU load of the client's own memory (an RDMA READ for a
     * client on a node without memory).
     *
     * @return whether {@link #await} would return without waiting
     * @throws TrusteeClosedException when its client was closed
     * @throws StaleHandleException   when the request was awaited already
     */
    public boolean poll() {
        check();
        if (state == State.STAGED) {
            client.flush();
        }
        return answered();
    }

    /**
     * Waits for the response until {@code timeout} has passed, then frees the slot. Blocking with the
     * caller's deadline; no RDMA beyond the flush of staged requests (CPU loads of the client's own
     * memory), or, on a node without memory, one READ per poll and one for the result. The request linearizes when the trustee runs it, before the response is written.
     *
     * @param timeout how long to wait, not negative
     * @return the operation's result; for a payload request, how many response bytes it wrote
     * @throws BadArgumentException        naming the value, for a negative timeout
     * @throws TrusteeTimeoutException     when no response came by the deadline; the slot stays taken
     *                                     until the late response arrives, and the request may still run
     * @throws TrusteeClosedException      when the trustee closed before answering, or its client was closed
     * @throws DelegatedOperationException when the trustee knows no such operation or property, or the
     *                                     operation threw there
     * @throws StaleHandleException        when the request was awaited already
     */
    public long await(Duration timeout) {
        long deadline = deadline(timeout);
        check();
        return awaitUntil(deadline, timeout);
    }

    static long deadline(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new BadArgumentException("timeout must not be negative, got " + timeout);
        }
        long nanos = timeout.compareTo(Duration.ofDays(365)) > 0 ? Duration.ofDays(365).toNanos() : timeout.toNanos();
        return ThreadTime.nanoTime() + nanos;
    }

    long awaitUntil(long deadline, Duration timeout) {
        if (state == State.STAGED) {
            client.flush();
        }
        int spins = 0;
        while (!answered()) {
            if (client.closedMark() || (client.remoteResponses() && client.thread().buffer().get(ValueLayout.JAVA_LONG, 8) != 0)) {
                if (answered()) {
                    break;
                }
                state = State.ABANDONED;
                throw new TrusteeClosedException("trustee " + RemotePtr.toString(client.trustee()) + " closed before it answered op "
                        + opId + " on property " + propertyId + " (client " + client.index() + ", slot " + slot + ")");
            }
            if (ThreadTime.nanoTime() - deadline >= 0) {
                state = State.ABANDONED;
                throw new TrusteeTimeoutException("trustee " + RemotePtr.toString(client.trustee()) + " did not answer op " + opId
                        + " on property " + propertyId + " within " + timeout + " (client " + client.index() + ", slot " + slot
                        + ", request " + sequence + ")");
            }
            spins = backOff(spins);
        }
        MemorySegment responses = client.responses();
        long offset = responseOffset;
        MemorySegment into = response;
        response = null;
        if (responses == null) {
            client.thread().read(client.responsePtr() + responseOffset, 0, 16 + (into == null ? 0 : payloadBytes));
            responses = client.thread().buffer();
            offset = 0;
        }
        long result = responses.get(ValueLayout.JAVA_LONG, offset + Trustee.RESPONSE_RESULT);
        long status = responses.get(ValueLayout.JAVA_LONG, offset + Trustee.RESPONSE_STATUS);
        if (into != null && status == Trustee.STATUS_OK) {
            MemorySegment.copy(responses, offset + Trustee.RESPONSE_PAYLOAD, into, 0, result);
        }
        state = State.FREE;
        if (status != Trustee.STATUS_OK) {
            String why = status == Trustee.STATUS_UNKNOWN_OPERATION ? "no operation " + opId + " is registered there"
                    : status == Trustee.STATUS_UNKNOWN_PROPERTY ? "it holds no property " + propertyId
                    : status == Trustee.STATUS_RELEASED_PROPERTY ? "property " + propertyId + " was released there"
                    : status == Trustee.STATUS_OPERATION_THREW ? "operation " + opId + " threw there"
                    : status == Trustee.STATUS_WORD_OPERATION ? "operation " + opId + " takes a word, not a payload"
                    : status == Trustee.STATUS_PAYLOAD_OPERATION ? "operation " + opId + " takes a payload, not a word"
                    : status == Trustee.STATUS_BAD_PAYLOAD ? "operation " + opId + " got or returned a payload length outside 0.."
                            + payloadBytes
                    : "it answered with unknown status " + status;
            throw new DelegatedOperationException("trustee " + RemotePtr.toString(client.trustee()) + " refused op " + opId
                    + " on property " + propertyId + ": " + why);
        }
        return result;
    }

    private void check() {
        client.thread().checkOwnerThread();
        client.requireOpen();
        if (state != State.STAGED && state != State.POSTED) {
            throw new StaleHandleException(sequence, "request " + sequence + " in slot " + slot + " of client " + client.index()
                    + " of trustee " + RemotePtr.toString(client.trustee()) + " was awaited already");
        }
    }

    /** Spins briefly, then yields the processor, between polls of a response. */
    static int backOff(int spins) {
        if (spins < 64) {
            ThreadTime.onSpinWait("a trustee's response");
        } else {
            ThreadTime.yield();
        }
        return spins + 1;
    }
}
