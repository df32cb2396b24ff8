package io.remus.ds.queue;

import io.remus.core.error.RemusException;

/** A single-producer queue already has its producer: a second one was refused before it wrote anything. */
public class ProducerClaimedException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which queue, and the claim that holds it
     */
    public ProducerClaimedException(String message) {
        super(message);
    }
}
