package io.remus.verbs;

/** No RDMA device has the requested name; the message lists the devices that exist. */
public final class DeviceNotFoundException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message the requested name and the available devices
     */
    public DeviceNotFoundException(String message) {
        super(message);
    }
}
