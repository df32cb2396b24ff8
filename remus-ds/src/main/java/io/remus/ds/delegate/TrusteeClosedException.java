package io.remus.ds.delegate;

import io.remus.core.error.RemusException;

/**
 * The trustee was closed: it serves no request any more. A request pending when it closed, and
 * every later one, fails with this as soon as the client sees the trustee's closed mark. Also thrown by
 * every call of a {@link TrusteeClient} after its {@link TrusteeClient#close()}, and of its {@link Trust}
 * handles and pending requests.
 */
public class TrusteeClosedException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which trustee, and which operation was refused
     */
    public TrusteeClosedException(String message) {
        super(message);
    }
}
