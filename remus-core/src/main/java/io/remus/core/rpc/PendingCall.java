package io.remus.core.rpc;

import io.remus.core.config.Timeouts;
import io.remus.core.error.RemoteTimeoutException;

import java.time.Duration;

/**
 * One call made with {@link RpcEndpoint#callAsync}: its request is in the peer's ring, its response
 * has not been taken yet. Confined to its endpoint's thread, as the endpoint is.
 */
public final class PendingCall {
    private final RpcEndpoint endpoint;
    private final int peer;
    /** A record of the endpoint's own blocking calls, reused: its response stays in the ring. */
    private final boolean inRing;
    private int methodId;
    private long callId;
    private byte[] result;
    private boolean ringDone;
    private int ringLength;
    private RuntimeException failure;

    PendingCall(RpcEndpoint endpoint, int peer, int methodId, long callId) {
        this.endpoint = endpoint;
        this.peer = peer;
        this.methodId = methodId;
        this.callId = callId;
        this.inRing = false;
    }

    /** A reusable record for the endpoint's blocking segment calls to {@code peer}; see {@link #reuse}. */
    PendingCall(RpcEndpoint endpoint, int peer) {
        this.endpoint = endpoint;
        this.peer = peer;
        this.inRing = true;
    }

    /** Starts a new blocking call on this record (which no call in flight holds). */
    void reuse(int method, long id) {
        methodId = method;
        callId = id;
        ringDone = false;
        ringLength = 0;
        failure = null;
    }

    /** {@return the called node} */
    public int peer() {
        return peer;
    }

    /** {@return the called method's id} */
    public int methodId() {
        return methodId;
    }

    long callId() {
        return callId;
    }

    /** {@return whether the response (or a failure) has arrived; wait-free, no RDMA operation} */
    public boolean isDone() {
        return result != null || failure != null || ringDone;
    }

    /** {@return whether the response is left in the endpoint's ring (a blocking segment call)} */
    boolean inRing() {
        return inRing;
    }

    void complete(byte[] response) {
        if (!isDone()) {
            result = response;
        }
    }

    /** The response of {@code length} bytes is in the ring; the endpoint copies it out. */
    void completeInRing(int length) {
        if (!isDone()) {
            ringDone = true;
            ringLength = length;
        }
    }

    int ringLength() {
        return ringLength;
    }

    RuntimeException failure() {
        return failure;
    }

    void fail(RuntimeException cause) {
        if (!isDone()) {
            failure = cause;
        }
    }

    /**
     * Waits for the response, serving requests that reach this endpoint meanwhile. Blocking, bounded by
     * {@code timeout}; no RDMA operation of its own beyond the responses it sends for requests it serves.
     * A timed-out call may be awaited again: its response is kept when it comes.
     *
     * @param timeout the longest wait, positive
     * @return the response's bytes
     * @throws RemoteTimeoutException when no response arrived within {@code timeout}
     * @throws RpcUnknownMethodException when the peer has no such method
     * @throws RpcMethodFailedException when the peer's method failed
     * @throws io.remus.core.error.PeerUnreachableException when the peer is lost
     */
    public byte[] await(Duration timeout) {
        Timeouts.require(timeout, "timeout");
        return await(RpcEndpoint.deadline(timeout));
    }

    byte[] await(long deadline) {
        endpoint.awaitCall(this, deadline);
        if (failure != null) {
            throw failure;
        }
        if (result == null) {
            throw new RemoteTimeoutException("no response from node " + peer + " to method " + methodId
                    + " (call " + callId + ") before the deadline");
        }
        return result;
    }
}
