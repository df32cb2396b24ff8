package io.remus.core.error;

import java.time.Duration;

/**
 * A wait for a name to be published in a {@link io.remus.core.NameDirectory} ran out: nobody published the
 * name before the caller's deadline. The message names the name and the timeout.
 */
public class NameNotPublishedException extends RemoteTimeoutException {
    private static final long serialVersionUID = 1L;

    /** The name awaited. */
    private final String name;
    /** How long the caller waited. */
    private final Duration timeout;

    /**
     * Creates the exception.
     *
     * @param name    the name awaited
     * @param timeout how long the caller waited
     * @param message which directory, in words
     */
    public NameNotPublishedException(String name, Duration timeout, String message) {
        super(message);
        this.name = name;
        this.timeout = timeout;
    }

    /** {@return the name awaited} */
    public String name() {
        return name;
    }

    /** {@return how long the caller waited} */
    public Duration timeout() {
        return timeout;
    }
}
