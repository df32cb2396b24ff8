package io.remus.verbs;

/**
 * Connection setup through the RDMA connection manager failed: an unexpected or error event
 * ({@code rdma_event_str} names it) or a failing {@code rdma_*} call.
 */
public final class ConnectionException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** The connection manager event's name. */
    private final String event;
    /** The event's status field. */
    private final int eventStatus;

    /**
     * Creates the exception for an unexpected or error event; the message names the event and its status.
     *
     * @param event       the connection manager event's name, e.g. {@code RDMA_CM_EVENT_REJECTED}
     * @param eventStatus the event's status field
     * @param message     what was being done
     */
    public ConnectionException(String event, int eventStatus, String message) {
        super(message + ": got " + event + " (status " + eventStatus + ")");
        this.event = event;
        this.eventStatus = eventStatus;
    }

    /** {@return the connection manager event's name} */
    public String event() {
        return event;
    }

    /** {@return the event's status field (for rejections: the reject reason; else a negative errno)} */
    public int eventStatus() {
        return eventStatus;
    }
}
