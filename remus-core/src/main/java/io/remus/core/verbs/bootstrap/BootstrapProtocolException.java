package io.remus.core.verbs.bootstrap;

import io.remus.core.error.RemusException;

/**
 * A bootstrap message was malformed (wrong magic, unsupported version, unknown type, a length
 * that does not match its body, a field out of range) or a peer answered with an error. Nothing
 * from such a message reaches a queue pair.
 */
public class BootstrapProtocolException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** @param message what was wrong */
    public BootstrapProtocolException(String message) {
        super(message);
    }

    /**
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public BootstrapProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
