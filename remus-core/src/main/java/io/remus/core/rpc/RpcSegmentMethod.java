package io.remus.core.rpc;

import java.lang.foreign.MemorySegment;

/**
 * A method served by an {@link RpcEndpoint} that reads its request from and writes its response to
 * memory the endpoint owns, so that serving it allocates nothing; registered under an id with
 * {@link RpcEndpoint#register(int, RpcSegmentMethod)}. It runs on the serving endpoint's thread, as an
 * {@link RpcMethod} does, and must not call back into its own endpoint. Callers reach it with either
 * kind of call: the wire format is the same.
 */
@FunctionalInterface
public interface RpcSegmentMethod {
    /**
     * Serves one call.
     *
     * @param caller        the node id of the caller
     * @param request       {@value RpcEndpoint#MAX_PAYLOAD} bytes whose first {@code requestLength} are the
     *                      request; valid only during this call
     * @param requestLength the request's bytes, 0 to {@value RpcEndpoint#MAX_PAYLOAD}
     * @param response      {@value RpcEndpoint#MAX_PAYLOAD} bytes to write the response into, from offset 0;
     *                      valid only during this call
     * @return the response's length in bytes, 0 to {@value RpcEndpoint#MAX_PAYLOAD}; another value, or an
     *         exception, makes the caller's call fail with {@link RpcMethodFailedException}
     */
    int apply(int caller, MemorySegment request, int requestLength, MemorySegment response);
}
