package io.remus.core.error;

/**
 * An object confined to one Java thread (a {@link io.remus.core.ComputeThread}, and what works through it, such
 * as lock handles) was used from another. Thrown on entry, before anything is posted or changed.
 */
public class ThreadConfinementException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which object, its owner thread and the calling thread
     */
    public ThreadConfinementException(String message) {
        super(message);
    }

    /**
     * Describes a thread.
     *
     * @param thread a Java thread
     * @return its name and id, for messages
     */
    public static String describe(Thread thread) {
        return "\"" + thread.getName() + "\" (id " + thread.threadId() + ")";
    }
}
