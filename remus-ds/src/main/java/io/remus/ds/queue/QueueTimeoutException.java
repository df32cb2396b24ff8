package io.remus.ds.queue;

import io.remus.core.error.RemoteTimeoutException;

/**
 * A queue operation's caller-chosen patience ran out while the slot it needed was held by another
 * caller's operation in flight. The operation took no effect: it held no ticket when it gave up.
 */
public class QueueTimeoutException extends RemoteTimeoutException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which queue, which ticket was awaited, and for how long
     */
    public QueueTimeoutException(String message) {
        super(message);
    }
}
