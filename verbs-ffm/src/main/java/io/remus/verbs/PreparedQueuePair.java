package io.remus.verbs;

import java.util.Objects;

/**
 * The second state of a reliable-connected queue pair: created and in INIT. Give
 * {@link #localEndpoint()} to the peer, then {@link #connect(Endpoint)} with the peer's
 * endpoint (or {@link #connectToSelf()} for loopback). Connecting hands the queue pair over to
 * the returned {@link ConnectedQueuePair}; closing this object afterwards does nothing.
 */
public final class PreparedQueuePair implements AutoCloseable {
    private final QueuePairHandle handle;
    private boolean connected;

    PreparedQueuePair(QueuePairHandle handle) {
        this.handle = handle;
    }

    /** {@return what the peer needs to connect to this queue pair} */
    public Endpoint localEndpoint() {
        handle.requireOpen();
        return handle.localEndpoint();
    }

    /**
     * Connects with {@link ConnectionOptions#defaults()}.
     *
     * @param remote the peer's endpoint
     * @return the connected queue pair
     * @see #connect(Endpoint, ConnectionOptions)
     */
    public ConnectedQueuePair connect(Endpoint remote) {
        return connect(remote, ConnectionOptions.defaults());
    }

    /**
     * Moves the queue pair to ready-to-receive and ready-to-send against {@code remote}.
     *
     * @param remote  the peer's endpoint
     * @param options the transport settings
     * @return the connected queue pair, which now owns the native queue pair
     * @throws VerbsException if already connected or closed ({@link ClosedResourceException}),
     *                        or {@code ibv_modify_qp} fails
     */
    public synchronized ConnectedQueuePair connect(Endpoint remote, ConnectionOptions options) {
        Objects.requireNonNull(remote, "remote");
        Objects.requireNonNull(options, "options");
        if (connected) {
            throw new VerbsException("this queue pair is already connected: use the ConnectedQueuePair");
        }
        handle.connect(remote, options);
        connected = true;
        return new ConnectedQueuePair(handle);
    }

    /** {@return this queue pair connected to itself (loopback), with default options} */
    public ConnectedQueuePair connectToSelf() {
        return connect(localEndpoint());
    }

    /** Destroys the queue pair unless it was connected; idempotent. */
    @Override
    public synchronized void close() {
        if (!connected) {
            handle.close();
        }
    }
}
