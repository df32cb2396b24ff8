package io.remus.core.rpc;

/**
 * A method served by an {@link RpcEndpoint}, registered under an id with
 * {@link RpcEndpoint#register(int, RpcMethod)}. It runs on the serving endpoint's thread, inside
 * {@link RpcEndpoint#serve} or while that endpoint waits in {@link RpcEndpoint#call}; it must not
 * call back into its own endpoint.
 */
@FunctionalInterface
public interface RpcMethod {
    /**
     * Serves one call.
     *
     * @param caller the node id of the caller
     * @param payload the request's bytes (at most {@link RpcEndpoint#MAX_PAYLOAD})
     * @return the response's bytes (at most {@link RpcEndpoint#MAX_PAYLOAD}); a longer result, or an
     * exception, makes the caller's call fail with {@link RpcMethodFailedException}
     */
    byte[] apply(int caller, byte[] payload);
}
