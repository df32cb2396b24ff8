package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.RdmaCm;
import io.remus.verbs.ffi.rdma_cm_id;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * The passive side of the RDMA connection manager: bound to a local IPv4 address and port,
 * listening; {@link #accept} takes one connection request, builds its queue pair on the
 * listener's device, exchanges region information as private data and waits until the
 * connection is established. Requests that arrive while one is being established are kept for
 * the next {@code accept}. Every wait has a timeout. One thread at a time.
 */
public final class CmListener implements AutoCloseable {
    private final CmEventChannel channel;
    private final MemorySegment id;
    private final Context context;
    private final ArrayDeque<CmEventChannel.Event> pendingRequests = new ArrayDeque<>();
    private boolean closed;

    private CmListener(CmEventChannel channel, MemorySegment id, Context context) {
        this.channel = channel;
        this.id = id;
        this.context = context;
    }

    /**
     * Binds to {@code address:port} and listens.
     *
     * @param context a context from {@link Context#openForRdmaCm(String)} on the device that holds {@code address}
     * @param address a local IPv4 address literal
     * @param port    the TCP port (0: any; see {@link #port()})
     * @return the listener
     * @throws InvalidArgumentException if the address is not an IPv4 literal or is on another device
     * @throws VerbsException           if {@code rdma_bind_addr} or {@code rdma_listen} fails
     */
    public static CmListener listen(Context context, String address, int port) {
        Objects.requireNonNull(context, "context");
        context.requireOpen();
        CmEventChannel channel = new CmEventChannel();
        MemorySegment id = null;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sockaddr = CmIds.ipv4(arena, address, port);
            id = CmIds.create(channel);
            MemorySegment callState = Errno.allocate(arena);
            VerbResults.checkMinusOne(RdmaCm.rdma_bind_addr(callState, id, sockaddr), callState, "rdma_bind_addr",
                    "binding to " + address + ":" + port);
            if (rdma_cm_id.verbs(id).address() != context.handle().address()) {
                throw new InvalidArgumentException(address + " is not on the device of the given context (open it with"
                        + " Context.openForRdmaCm on the device that holds the address)");
            }
            VerbResults.checkMinusOne(RdmaCm.rdma_listen(callState, id, 16), callState, "rdma_listen",
                    "listening on " + address + ":" + port);
            return new CmListener(channel, id, context);
        } catch (RuntimeException e) {
            try {
                CmIds.destroy(id);
            } finally {
                channel.close();
            }
            throw e;
        }
    }

    /** {@return the bound TCP port} */
    public int port() {
        return Short.toUnsignedInt(RdmaCm.rdma_get_src_port(id));
    }

    /**
     * Waits for one connection request and accepts it.
     *
     * @param builder the queue pair's settings (its protection domain must be on this listener's context)
     * @param offer   the region offered to the peer
     * @param timeout how long to wait for the request and for establishment
     * @return the established connection
     * @throws WaitTimeoutException if no request came, or the connection was not established, in time
     * @throws ConnectionException  if an unexpected event came
     */
    public CmConnection accept(QueuePairBuilder builder, RemoteRegion offer, Duration timeout) {
        return acceptWithin(builder, offer, timeout, null, ConnectionOptions.defaults());
    }

    /**
     * {@link #accept(QueuePairBuilder, RemoteRegion, Duration)} with the outstanding READs/atomics
     * and retry counts of {@code options} (rdma_cm chooses the MTU, ACK timeout, RNR timer and hop
     * limit).
     *
     * @param builder the queue pair's settings (its protection domain must be on this listener's context)
     * @param offer   the region offered to the peer
     * @param timeout how long to wait for the request and for establishment
     * @param options READs/atomics in flight each way (capped by the device) and retry counts
     * @return the established connection
     * @throws WaitTimeoutException if no request came, or the connection was not established, in time
     * @throws ConnectionException  if an unexpected event came
     */
    public CmConnection accept(QueuePairBuilder builder, RemoteRegion offer, Duration timeout,
                               ConnectionOptions options) {
        return acceptWithin(builder, offer, timeout, null, Objects.requireNonNull(options, "options"));
    }

    /**
     * Waits for one connection request and accepts it; the time to establish it is counted from
     * the request's arrival, so a short {@code requestTimeout} (a polling loop that must notice
     * when to stop) does not abandon a connection the peer already sees established.
     *
     * @param builder          the queue pair's settings (its protection domain must be on this listener's context)
     * @param offer            the region offered to the peer
     * @param requestTimeout   how long to wait for a request
     * @param establishTimeout how long, from the request, to wait for establishment
     * @return the established connection
     * @throws WaitTimeoutException if no request came, or the connection was not established, in time
     * @throws ConnectionException  if an unexpected event came
     */
    public CmConnection accept(QueuePairBuilder builder, RemoteRegion offer, Duration requestTimeout,
                               Duration establishTimeout) {
        return acceptWithin(builder, offer, requestTimeout, Objects.requireNonNull(establishTimeout, "establishTimeout"),
                ConnectionOptions.defaults());
    }

    private synchronized CmConnection acceptWithin(QueuePairBuilder builder, RemoteRegion offer, Duration requestTimeout,
                                                   Duration establishTimeout, ConnectionOptions options) {
        Objects.requireNonNull(builder, "builder");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (closed) {
            throw new ClosedResourceException("the listener is closed");
        }
        Objects.requireNonNull(offer, "offer");
        builder.check();
        long requestDeadline = Deadlines.after(requestTimeout, "requestTimeout");
        CmEventChannel.Event request = pendingRequests.isEmpty()
                ? channel.expect(requestDeadline, RdmaCm.RDMA_CM_EVENT_CONNECT_REQUEST, "waiting for a connection request")
                : pendingRequests.poll();
        long deadline = establishTimeout == null ? requestDeadline : Deadlines.after(establishTimeout, "establishTimeout");
        MemorySegment child = request.id().reinterpret(rdma_cm_id.sizeof());
        QueuePairHandle handle = null;
        CmEventChannel own = null;
        try (Arena arena = Arena.ofConfined()) {
            RemoteRegion peer = RemoteRegion.fromBytes(request.privateData());
            CmIds.checkSameContext(child, builder);
            handle = new QueuePairHandle(builder, child);
            MemorySegment callState = Errno.allocate(arena);
            VerbResults.checkMinusOne(RdmaCm.rdma_accept(callState, child, CmIds.connectionParameters(arena, context, offer, options)),
                    callState, "rdma_accept", "accepting a connection");
            CmEventChannel.Event established = channel.next(deadline);
            while (established.type() == RdmaCm.RDMA_CM_EVENT_CONNECT_REQUEST) {
                pendingRequests.add(established);
                established = channel.next(deadline);
            }
            if (established.type() != RdmaCm.RDMA_CM_EVENT_ESTABLISHED) {
                throw new ConnectionException(established.name(), established.status(),
                        "waiting for the accepted connection to be established");
            }
            if (established.id().address() != child.address()) {
                throw new ConnectionException(established.name(), established.status(), "an event for another connection");
            }
            own = new CmEventChannel();
            VerbResults.checkMinusOne(RdmaCm.rdma_migrate_id(callState, child, own.handle()), callState,
                    "rdma_migrate_id", "moving the connection to its own event channel");
            return new CmConnection(own, child, handle, peer);
        } catch (RuntimeException e) {
            try {
                if (handle != null) {
                    handle.close();
                }
                CmIds.destroy(child);
            } finally {
                if (own != null) {
                    own.close();
                }
            }
            throw e;
        }
    }

    /** Stops listening: destroys the id and the event channel. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            for (CmEventChannel.Event request : pendingRequests) {
                CmIds.destroy(request.id().reinterpret(rdma_cm_id.sizeof()));
            }
            pendingRequests.clear();
            CmIds.destroy(id);
        } finally {
            channel.close();
        }
    }
}
