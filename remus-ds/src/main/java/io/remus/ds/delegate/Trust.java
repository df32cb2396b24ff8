package io.remus.ds.delegate;

import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Objects;

/**
 * A client's handle to one property of a {@link Trustee}: Trust&lt;T&gt; (Gossamer, UIC 2025). Every
 * operation is delegated: the trustee runs it on the property and sends back the result, following
 * ffwd (Roghanchi et al., "ffwd: delegation is (much) faster than you think", SOSP 2017). Operations
 * are named by the id they were registered under on the trustee; requests and results are one word
 * each, or, at a trustee made with payloads, up to {@link Trustee#payloadBytes()} bytes each (at the
 * same RDMA operation counts). Confined to the owner of its client's compute thread;
 * several handles may share one {@link TrusteeClient}.
 *
 * <p><b>Linearization point</b>: the trustee's run of the operation, which lies between the call and
 * its return. <b>Progress</b>: blocking, with the caller's deadline; it completes as soon as the
 * trustee serves the request. <b>RDMA per call</b>: see {@link TrusteeClient}: from another node than
 * the trustee's, 2 WRITEs, 0 READs and 1 round trip per {@link #apply}; from the trustee's node, none;
 * from a node without memory, 2 WRITEs and {@code k + 1} READs in {@code k + 2} round trips for
 * {@code k} polls.
 *
 * @param <T> the type of the property on the trustee
 */
public final class Trust<T> {
    private final TrusteeClient client;
    private final int propertyId;
    private boolean holdsReference;
    private boolean released;

    Trust(TrusteeClient client, int propertyId, boolean holdsReference) {
        this.client = client;
        this.propertyId = propertyId;
        this.holdsReference = holdsReference;
    }

    /**
     * {@return whether this handle holds a reference to the property ({@link TrusteeClient#share}) that it has not
     *         released}
     */
    public boolean holdsReference() {
        return holdsReference;
    }

    /**
     * Drops this handle's reference to the property: one request the trustee serves, with the costs of an
     * {@link #apply}. When it was the last, the trustee drops the property (closing it when it is
     * {@link AutoCloseable}) and later requests naming it fail with {@link DelegatedOperationException}. This
     * handle is then released: its calls throw {@link BadArgumentException}. Blocking, with the caller's deadline.
     *
     * @param timeout how long to wait for a free slot and the trustee's answer, not negative
     * @return the references the property has left (0: it was dropped)
     * @throws BadArgumentException        naming the property, when this handle holds no reference (it came from
     *                                     {@link TrusteeClient#trust}, or was released already)
     * @throws TrusteeTimeoutException     when the trustee did not answer by the deadline (the request stays
     *                                     posted: a trustee that serves it later drops the reference; the handle is
     *                                     released either way)
     * @throws TrusteeClosedException      when the trustee is or becomes closed before answering, or the client
     *                                     is closed
     * @throws DelegatedOperationException when the property's close threw on the trustee (the property is dropped)
     */
    public int release(Duration timeout) {
        if (!holdsReference) {
            throw new BadArgumentException("this handle to property " + propertyId + " holds no reference"
                    + (released ? ": it was released already" : ": it came from trust(), not share()"));
        }
        long deadline = PendingApply.deadline(timeout);
        PendingApply p = client.stage(propertyId, Trustee.RELEASE, 0, deadline, true);
        holdsReference = false;
        released = true;
        return (int) p.awaitUntil(deadline, timeout);
    }

    private void checkUsable(int opId) {
        if (released) {
            throw new BadArgumentException("this handle to property " + propertyId + " was released");
        }
        if (opId < 0 || opId >= Trustee.MAX_OPERATIONS) {
            throw new BadArgumentException("opId must be 0.." + (Trustee.MAX_OPERATIONS - 1) + ", got " + opId);
        }
    }

    /** {@return the property's id at its trustee} */
    public int propertyId() {
        return propertyId;
    }

    /** {@return the client whose slots this handle uses} */
    public TrusteeClient client() {
        return client;
    }

    /**
     * Runs operation {@code opId} on the property with {@code arg} at the trustee and returns its result.
     * Blocking until the response or the deadline. Costs in the class comment.
     *
     * @param opId    an operation id registered on the trustee, 0..{@code Trustee.MAX_OPERATIONS - 1}
     * @param arg     the argument word
     * @param timeout how long to wait for a free slot and the response, not negative
     * @return the operation's result
     * @throws BadArgumentException        naming the value, for an op id out of range or a negative timeout, or
     *                                     when this handle was released
     * @throws TrusteeTimeoutException     when no response came by the deadline (the trustee stopped or died)
     * @throws TrusteeClosedException      when the trustee is or becomes closed before answering, or the client
     *                                     is closed
     * @throws DelegatedOperationException when the trustee knows no such operation or property, the property
     *                                     was released, or the operation threw there
     */
    public long apply(int opId, long arg, Duration timeout) {
        checkUsable(opId);
        long deadline = PendingApply.deadline(timeout);
        PendingApply p = client.stage(propertyId, opId, arg, deadline, true);
        return p.awaitUntil(deadline, timeout);
    }

    /**
     * Runs payload operation {@code opId} on the property with {@code request}'s bytes at the trustee and
     * copies the response's bytes into {@code response}. Blocking until the response or the deadline. Costs
     * as {@link #apply(int, long, Duration)}'s, with the payloads in the same WRITEs (from a node without
     * memory, the last READ also carries the response's bytes).
     *
     * @param opId     a payload operation id registered on the trustee, 0..{@code Trustee.MAX_OPERATIONS - 1}
     * @param request  the request's bytes, at most {@link TrusteeClient#payloadBytes()}
     * @param response where the response's bytes go: writable, at least {@link TrusteeClient#payloadBytes()} long
     * @param timeout  how long to wait for a free slot and the response, not negative
     * @return how many bytes of {@code response} the operation wrote
     * @throws BadArgumentException        naming the value, for an op id out of range, a request longer than the
     *                                     trustee's payloads, a response segment that is read-only or shorter than
     *                                     them, a trustee made without payloads, a negative timeout, or when this
     *                                     handle was released
     * @throws TrusteeTimeoutException     when no response came by the deadline (the trustee stopped or died)
     * @throws TrusteeClosedException      when the trustee is or becomes closed before answering, or the client
     *                                     is closed
     * @throws DelegatedOperationException when the trustee knows no such payload operation or property, the
     *                                     property was released, or the operation threw there or returned a length
     *                                     outside {@code 0..payloadBytes}
     */
    public int apply(int opId, MemorySegment request, MemorySegment response, Duration timeout) {
        checkPayloadCall(opId, request, response);
        long deadline = PendingApply.deadline(timeout);
        PendingApply p = client.stage(propertyId, opId, request.byteSize(), request, response, deadline, true);
        return (int) p.awaitUntil(deadline, timeout);
    }

    /**
     * Starts payload operation {@code opId} on the property with {@code request}'s bytes, as
     * {@link #applyAsync(int, long)} starts a word operation; {@link PendingApply#await} then returns how many
     * bytes of {@code response} the operation wrote. A client on the trustee's node copies the request at
     * once; another client copies it at the flush, so {@code request} must not change until then, and
     * {@code response} must stay valid until the await. Wait-free; no RDMA until the flush.
     *
     * @param opId     a payload operation id registered on the trustee
     * @param request  the request's bytes, at most {@link TrusteeClient#payloadBytes()}
     * @param response where the response's bytes go: writable, at least {@link TrusteeClient#payloadBytes()} long
     * @return the request's handle, reused by the slot's next request once awaited
     * @throws BadArgumentException   naming the value, as {@link #apply(int, MemorySegment, MemorySegment, Duration)}
     *                                does, or when every slot of the client is in flight
     * @throws TrusteeClosedException when the trustee or the client is closed
     */
    public PendingApply applyAsync(int opId, MemorySegment request, MemorySegment response) {
        checkPayloadCall(opId, request, response);
        return client.stage(propertyId, opId, request.byteSize(), request, response, 0, false);
    }

    private void checkPayloadCall(int opId, MemorySegment request, MemorySegment response) {
        checkUsable(opId);
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
        int most = client.payloadBytes();
        if (most == 0) {
            throw new BadArgumentException("trustee " + RemotePtr.toString(client.trustee()) + " carries no payloads "
                    + "(made with payloadBytes 0); call apply(opId, arg, timeout)");
        }
        if (request.byteSize() > most) {
            throw new BadArgumentException("request of " + request.byteSize() + " bytes exceeds the trustee's payloads of "
                    + most + " bytes");
        }
        if (response.isReadOnly() || response.byteSize() < most) {
            throw new BadArgumentException("response segment of " + response.byteSize() + " bytes" + (response.isReadOnly()
                    ? " is read-only" : " is shorter than the trustee's payloads of " + most + " bytes"));
        }
    }

    /**
     * Starts operation {@code opId} on the property with {@code arg}: takes one of the client's request
     * slots and stages the request. A client on the trustee's node stores it there at once; another
     * client sends it with its other staged requests in one doorbell at {@link TrusteeClient#flush()}, or
     * at the first {@link PendingApply#poll()} or {@link PendingApply#await} of any of them. Wait-free;
     * no RDMA until the flush.
     *
     * @param opId an operation id registered on the trustee
     * @param arg  the argument word
     * @return the request's handle, reused by the slot's next request once awaited
     * @throws BadArgumentException   naming the value, for an op id out of range, when every slot of the
     *                                client is in flight, or when this handle was released
     * @throws TrusteeClosedException when the trustee or the client is closed
     */
    public PendingApply applyAsync(int opId, long arg) {
        checkUsable(opId);
        return client.stage(propertyId, opId, arg, 0, false);
    }
}
