package io.remus.ds.delegate;

/**
 * An operation a {@link Trustee} runs on one of its properties on behalf of a client, registered by
 * id with {@link Trustee#register}. It runs on the trustee's thread only, one at a time, so it needs
 * no synchronisation with other operations on the same trustee; it should be short, since every
 * client of the trustee waits behind it.
 *
 * @param <T> the type of the trustee's properties
 */
@FunctionalInterface
public interface TrusteeOperation<T> {
    /**
     * Serves one request on the trustee's thread.
     *
     * @param state the property the request names
     * @param arg   the request's argument word
     * @return the result word sent back to the client
     */
    long apply(T state, long arg);
}
