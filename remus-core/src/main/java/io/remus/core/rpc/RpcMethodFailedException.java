package io.remus.core.rpc;

import io.remus.core.error.RemusException;

/**
 * The called method threw, or returned more than {@link RpcEndpoint#MAX_PAYLOAD} bytes; the message
 * carries the serving side's description (its exception's class and message, cut to fit a slot).
 */
public class RpcMethodFailedException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** The called node. */
    private final int peer;
    /** The method that failed. */
    private final int methodId;

    /**
     * Creates the exception for a method that failed on the called node.
     *
     * @param peer the called node
     * @param methodId the method that failed
     * @param detail the serving side's description of the failure
     */
    public RpcMethodFailedException(int peer, int methodId, String detail) {
        super("method " + methodId + " failed on node " + peer + ": " + detail);
        this.peer = peer;
        this.methodId = methodId;
    }

    /** {@return the called node} */
    public int peer() {
        return peer;
    }

    /** {@return the method that failed} */
    public int methodId() {
        return methodId;
    }
}
