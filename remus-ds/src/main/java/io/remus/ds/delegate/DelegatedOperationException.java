package io.remus.ds.delegate;

import io.remus.core.error.RemusException;

/**
 * The trustee refused or failed a request: the operation id or property id is not registered on it,
 * or the registered operation threw (the trustee caught it and went on serving).
 */
public class DelegatedOperationException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which trustee, operation and property, and what went wrong
     */
    public DelegatedOperationException(String message) {
        super(message);
    }
}
