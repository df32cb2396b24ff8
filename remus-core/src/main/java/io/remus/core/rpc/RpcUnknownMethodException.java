package io.remus.core.rpc;

import io.remus.core.error.RemusException;

/** A call named a method id that the called endpoint has not registered. */
public class RpcUnknownMethodException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** The called node. */
    private final int peer;
    /** The unregistered method id. */
    private final int methodId;

    /**
     * Creates the exception for a method id the called node has not registered.
     *
     * @param peer the called node
     * @param methodId the unregistered method id
     */
    public RpcUnknownMethodException(int peer, int methodId) {
        super("node " + peer + " has no method " + methodId + " registered");
        this.peer = peer;
        this.methodId = methodId;
    }

    /** {@return the called node} */
    public int peer() {
        return peer;
    }

    /** {@return the unregistered method id} */
    public int methodId() {
        return methodId;
    }
}
