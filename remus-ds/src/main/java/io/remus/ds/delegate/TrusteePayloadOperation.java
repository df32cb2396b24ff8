package io.remus.ds.delegate;

import java.lang.foreign.MemorySegment;

/**
 * An operation a {@link Trustee} made with payloads runs on one of its properties on behalf of a client:
 * it reads the request's bytes and writes the response's, registered by id with
 * {@link Trustee#register(int, TrusteePayloadOperation)} and called with
 * {@link Trust#apply(int, MemorySegment, MemorySegment, java.time.Duration)}. As a {@link TrusteeOperation},
 * it runs on the trustee's thread only, one at a time, and should be short.
 *
 * @param <T> the type of the trustee's properties
 */
@FunctionalInterface
public interface TrusteePayloadOperation<T> {
    /**
     * Serves one request on the trustee's thread.
     *
     * @param state    the property the request names
     * @param request  the request's bytes, read-only, valid during the call only
     * @param response where to write the response's bytes, {@link Trustee#payloadBytes()} long, valid during the
     *                 call only
     * @return how many bytes of {@code response} to send back, 0..{@link Trustee#payloadBytes()}; any other
     *         count fails the client's call with {@link DelegatedOperationException}
     */
    int apply(T state, MemorySegment request, MemorySegment response);
}
