package io.remus.verbs;

/**
 * The one unchecked exception family of the verbs API: a verb failed, or the caller passed
 * something that must not reach native code.
 *
 * <p>When a C function failed, {@link #function()} names it and {@link #errno()} carries the
 * error number it reported (0 when the failure is not errno-based); the message includes the
 * errno's name and text, e.g. {@code mbind failed: errno 22 (EINVAL: Invalid argument): ...}. Subclasses name the kind of failure so that callers can catch what they can
 * handle.
 */
public class VerbsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The C function that failed, or {@code null}. */
    private final String function;
    /** The error number it reported, 0 if none. */
    private final int errno;

    /**
     * A failure of the C function {@code function} with error number {@code errno}.
     *
     * @param function the C function that failed, e.g. {@code "ibv_modify_qp"}
     * @param errno    the error number it reported, 0 if none
     * @param message  what was being done, in the caller's words
     */
    public VerbsException(String function, int errno, String message) {
        super(format(function, errno, message));
        this.function = function;
        this.errno = errno;
    }

    /**
     * A failure that did not come from a C function (bad input, wrong state).
     *
     * @param message what is wrong
     */
    public VerbsException(String message) {
        super(message);
        this.function = null;
        this.errno = 0;
    }

    /**
     * A failure with a cause.
     *
     * @param message what is wrong
     * @param cause   the underlying failure
     */
    public VerbsException(String message, Throwable cause) {
        super(message, cause);
        this.function = null;
        this.errno = 0;
    }

    /** {@return the C function that failed, or {@code null} when the failure is not a C call's} */
    public String function() {
        return function;
    }

    /** {@return the error number the C function reported, or 0} */
    public int errno() {
        return errno;
    }

    private static String format(String function, int errno, String message) {
        StringBuilder sb = new StringBuilder();
        sb.append(function).append(" failed");
        if (errno != 0) {
            sb.append(": errno ").append(errno).append(" (").append(io.remus.verbs.ffi.Errno.name(errno)).append(": ")
                    .append(io.remus.verbs.ffi.Errno.describe(errno)).append(')');
        }
        if (message != null && !message.isEmpty()) {
            sb.append(": ").append(message);
        }
        return sb.toString();
    }
}
