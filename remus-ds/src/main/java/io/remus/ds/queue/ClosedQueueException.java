package io.remus.ds.queue;

import io.remus.core.error.RemusException;

/** A queue handle was used after it was closed. */
public class ClosedQueueException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which handle
     */
    public ClosedQueueException(String message) {
        super(message);
    }
}
