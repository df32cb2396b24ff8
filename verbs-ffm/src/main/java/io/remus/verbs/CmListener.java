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
 * listener's device, exchanges region information (and, optionally, each side's identifier) as
 * private data ({@link CmPrivateData}) and waits until the connection is established. A request
 * whose private data is malformed, or that the caller's {@link Admission} refuses, is rejected
 * ({@code rdma_reject}) before anything is accepted. Requests that arrive while one is being
 * established are kept for the next {@code accept}. Every wait has a timeout. One thread at a time.
 */
public final class CmListener implements AutoCloseable {
    private final CmEventChannel channel;
    private final MemorySegment id;
    private final Context context;
    private final ArrayDeque<CmEventChannel.Event> pendingRequests = new ArrayDeque<>();
    private boolean closed;

    /**
     * Decides, from a connection request's private data, whether to accept it and what its queue pair
     * lets the requester do. Called on the accepting thread before {@code rdma_accept}; the access it
     * returns is set on the queue pair ({@code ibv_modify_qp} with {@code IBV_QP_ACCESS_FLAGS}) as soon as
     * {@code rdma_accept} returns, before the listener waits for establishment ({@code rdma_accept}
     * applies rdma_cm's own access flags, so they cannot be set earlier).
     */
    @FunctionalInterface
    public interface Admission {
        /**
         * Admits or refuses a connection request.
         *
         * @param request the request's decoded private data
         * @return the access its queue pair serves the requester with ({@link Access#LOCAL_WRITE} and any
         *         of {@link Access#REMOTE_READ}, {@link Access#REMOTE_WRITE}, {@link Access#REMOTE_ATOMIC})
         * @throws RuntimeException to refuse it: the listener rejects the request and rethrows
         */
        java.util.Set<Access> admit(CmPrivateData request);
    }

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
        return acceptWithin(builder, anonymous(offer), timeout, null, ConnectionOptions.defaults(), null);
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
        return acceptWithin(builder, anonymous(offer), timeout, null, Objects.requireNonNull(options, "options"), null);
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
        return acceptWithin(builder, anonymous(offer), requestTimeout,
                Objects.requireNonNull(establishTimeout, "establishTimeout"), ConnectionOptions.defaults(), null);
    }

    /**
     * {@link #accept(QueuePairBuilder, RemoteRegion, Duration, Duration)} that may name this side in its
     * private data and lets {@code admission} accept or refuse each request by the requester's private
     * data, and choose the access the requester is served with. A refused request is rejected with
     * {@code rdma_reject} and nothing of it is kept.
     *
     * @param builder          the queue pair's settings (its protection domain must be on this listener's context)
     * @param offer            the region offered to the peer and this side's identifier, if any
     * @param requestTimeout   how long to wait for a request
     * @param establishTimeout how long, from the request, to wait for establishment
     * @param admission        admits or refuses the request and names the access of its queue pair
     * @return the established connection; {@link CmConnection#peerId()} is the identifier the requester named
     * @throws WaitTimeoutException     if no request came, or the connection was not established, in time
     * @throws ConnectionException      if an unexpected event came
     * @throws InvalidArgumentException if the request's private data is not a {@link CmPrivateData}
     *                                  encoding (the request is rejected)
     * @throws RuntimeException         what {@code admission} threw to refuse the request (it is rejected)
     */
    public CmConnection accept(QueuePairBuilder builder, CmPrivateData offer, Duration requestTimeout,
                               Duration establishTimeout, Admission admission) {
        return acceptWithin(builder, offer, requestTimeout, Objects.requireNonNull(establishTimeout, "establishTimeout"),
                ConnectionOptions.defaults(), Objects.requireNonNull(admission, "admission"));
    }

    private static CmPrivateData anonymous(RemoteRegion offer) {
        return CmPrivateData.anonymous(Objects.requireNonNull(offer, "offer"));
    }

    private synchronized CmConnection acceptWithin(QueuePairBuilder builder, CmPrivateData offer, Duration requestTimeout,
                                                   Duration establishTimeout, ConnectionOptions options,
                                                   Admission admission) {
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
        boolean accepted = false;
        try (Arena arena = Arena.ofConfined()) {
            CmPrivateData peer = CmPrivateData.fromConnectRequest(request.privateData());
            java.util.Set<Access> access = admission == null ? null
                    : Objects.requireNonNull(admission.admit(peer), "the admission's access");
            CmIds.checkSameContext(child, builder);
            handle = new QueuePairHandle(builder, child);
            MemorySegment callState = Errno.allocate(arena);
            VerbResults.checkMinusOne(RdmaCm.rdma_accept(callState, child, CmIds.connectionParameters(arena, context, offer, options)),
                    callState, "rdma_accept", "accepting a connection");
            accepted = true;
            if (access != null) {
                handle.modifyAccess(Access.flags(access));
            }
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
                if (!accepted) {
                    reject(child, e);
                }
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

    /** Rejects a request that was not accepted; a failure to reject is added to {@code cause}. */
    private static void reject(MemorySegment child, RuntimeException cause) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            VerbResults.checkMinusOne(RdmaCm.rdma_reject(callState, child, MemorySegment.NULL, (byte) 0), callState,
                    "rdma_reject", "rejecting a connection request");
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
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
