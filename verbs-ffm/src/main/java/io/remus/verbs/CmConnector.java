package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.RdmaCm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Objects;

/**
 * The active side of the RDMA connection manager: resolves the peer's address and route,
 * builds the queue pair, connects with the offered region (and, optionally, this side's identifier)
 * as private data ({@link CmPrivateData}) and waits for the connection to be established, retrying
 * (a fresh id each time) while the peer rejects or is unreachable, until the timeout. A listener that
 * refuses the identifier rejects the request, which looks to this side like any other rejection.
 */
public final class CmConnector {
    private static final int RESOLVE_TIMEOUT_MS = 5000;
    private static final long RETRY_PAUSE_MS = 500;

    private CmConnector() {
    }

    /**
     * Connects to a {@link CmListener} at {@code address:port}.
     *
     * @param builder the queue pair's settings; its protection domain must be on a context from
     *                {@link Context#openForRdmaCm(String)} of the device that reaches {@code address}
     * @param address the listener's IPv4 address literal
     * @param port    the listener's TCP port
     * @param offer   the region offered to the peer
     * @param timeout how long to keep trying
     * @return the established connection
     * @throws WaitTimeoutException if no attempt succeeded in time
     * @throws ConnectionException  for the last failed attempt's event when the time ran out
     * @throws InterruptedException if interrupted between attempts
     */
    public static CmConnection connect(QueuePairBuilder builder, String address, int port, RemoteRegion offer,
                                       Duration timeout) throws InterruptedException {
        return connect(builder, address, port, offer, timeout, ConnectionOptions.defaults());
    }

    /**
     * {@link #connect(QueuePairBuilder, String, int, RemoteRegion, Duration)} with the outstanding
     * READs/atomics and retry counts of {@code options} (rdma_cm chooses the MTU, ACK timeout, RNR
     * timer and hop limit).
     *
     * @param builder the queue pair's settings; its protection domain must be on a context from
     *                {@link Context#openForRdmaCm(String)} of the device that reaches {@code address}
     * @param address the listener's IPv4 address literal
     * @param port    the listener's TCP port
     * @param offer   the region offered to the peer
     * @param timeout how long to keep trying
     * @param options READs/atomics in flight each way (capped by the device) and retry counts
     * @return the established connection
     * @throws WaitTimeoutException if no attempt succeeded in time
     * @throws ConnectionException  for the last failed attempt's event when the time ran out
     * @throws InterruptedException if interrupted between attempts
     */
    public static CmConnection connect(QueuePairBuilder builder, String address, int port, RemoteRegion offer,
                                       Duration timeout, ConnectionOptions options) throws InterruptedException {
        return connect(builder, address, port, CmPrivateData.anonymous(Objects.requireNonNull(offer, "offer")), timeout,
                options);
    }

    /**
     * {@link #connect(QueuePairBuilder, String, int, RemoteRegion, Duration, ConnectionOptions)} with
     * private data that may name this side ({@link CmPrivateData#senderId()}), so that the listener
     * knows which peer the connection serves.
     *
     * @param builder the queue pair's settings; its protection domain must be on a context from
     *                {@link Context#openForRdmaCm(String)} of the device that reaches {@code address}
     * @param address the listener's IPv4 address literal
     * @param port    the listener's TCP port
     * @param offer   the region offered to the peer and this side's identifier, if any
     * @param timeout how long to keep trying
     * @param options READs/atomics in flight each way (capped by the device) and retry counts
     * @return the established connection; {@link CmConnection#peerId()} is what the listener named
     * @throws WaitTimeoutException     if no attempt succeeded in time
     * @throws ConnectionException      for the last failed attempt's event when the time ran out (a
     *                                  listener that refuses the request rejects it)
     * @throws InvalidArgumentException if the listener's reply is not a {@link CmPrivateData} encoding
     * @throws InterruptedException     if interrupted between attempts
     */
    public static CmConnection connect(QueuePairBuilder builder, String address, int port, CmPrivateData offer,
                                       Duration timeout, ConnectionOptions options) throws InterruptedException {
        return connect(builder, address, port, offer, timeout, options, true);
    }

    /**
     * One attempt of {@link #connect(QueuePairBuilder, String, int, CmPrivateData, Duration, ConnectionOptions)}:
     * a rejection or an unreachable peer ends it at once instead of being retried, for a peer that is known
     * to have been running (one whose listener is gone is not starting).
     *
     * @param builder the queue pair's settings; its protection domain must be on a context from
     *                {@link Context#openForRdmaCm(String)} of the device that reaches {@code address}
     * @param address the listener's IPv4 address literal
     * @param port    the listener's TCP port
     * @param offer   the region offered to the peer and this side's identifier, if any
     * @param timeout the bound on the attempt (address and route resolution, then the connection)
     * @param options READs/atomics in flight each way (capped by the device) and retry counts
     * @return the established connection; {@link CmConnection#peerId()} is what the listener named
     * @throws WaitTimeoutException     if the attempt did not end in time
     * @throws ConnectionException      for the attempt's failing event (a rejection, an unreachable peer)
     * @throws InvalidArgumentException if the listener's reply is not a {@link CmPrivateData} encoding
     */
    public static CmConnection connectOnce(QueuePairBuilder builder, String address, int port, CmPrivateData offer,
                                           Duration timeout, ConnectionOptions options) {
        try {
            return connect(builder, address, port, offer, timeout, options, false);
        } catch (InterruptedException e) {
            throw new AssertionError("one attempt does not sleep", e);
        }
    }

    private static CmConnection connect(QueuePairBuilder builder, String address, int port, CmPrivateData offer,
                                        Duration timeout, ConnectionOptions options, boolean retry)
            throws InterruptedException {
        Objects.requireNonNull(builder, "builder");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(offer, "offer");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(options, "options");
        builder.check();
        try (Arena arena = Arena.ofConfined()) {
            CmIds.ipv4(arena, address, port);
        }
        long deadline = Deadlines.after(timeout, "timeout");
        while (true) {
            try {
                return attempt(builder, address, port, offer, deadline, options);
            } catch (ConnectionException e) {
                if (!retry || deadline - System.nanoTime() <= RETRY_PAUSE_MS * 1_000_000) {
                    throw e;
                }
                Thread.sleep(RETRY_PAUSE_MS);
            }
        }
    }

    private static CmConnection attempt(QueuePairBuilder builder, String address, int port, CmPrivateData offer,
                                        long deadline, ConnectionOptions options) {
        CmEventChannel channel = new CmEventChannel();
        MemorySegment id = null;
        QueuePairHandle handle = null;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            id = CmIds.create(channel);
            VerbResults.checkMinusOne(RdmaCm.rdma_resolve_addr(callState, id, MemorySegment.NULL,
                    CmIds.ipv4(arena, address, port), RESOLVE_TIMEOUT_MS), callState, "rdma_resolve_addr",
                    "resolving " + address);
            channel.expect(deadline, RdmaCm.RDMA_CM_EVENT_ADDR_RESOLVED, "resolving " + address);
            VerbResults.checkMinusOne(RdmaCm.rdma_resolve_route(callState, id, RESOLVE_TIMEOUT_MS), callState,
                    "rdma_resolve_route", "resolving the route to " + address);
            channel.expect(deadline, RdmaCm.RDMA_CM_EVENT_ROUTE_RESOLVED, "resolving the route to " + address);
            CmIds.checkSameContext(id, builder);
            handle = new QueuePairHandle(builder, id);
            VerbResults.checkMinusOne(RdmaCm.rdma_connect(callState, id,
                            CmIds.connectionParameters(arena, builder.protectionDomain().context(), offer, options)),
                    callState, "rdma_connect", "connecting to " + address + ":" + port);
            CmEventChannel.Event established = channel.expect(deadline, RdmaCm.RDMA_CM_EVENT_ESTABLISHED,
                    "connecting to " + address + ":" + port);
            return new CmConnection(channel, id, handle, CmPrivateData.fromAccept(established.privateData()));
        } catch (RuntimeException e) {
            try {
                if (handle != null) {
                    handle.close();
                }
                CmIds.destroy(id);
            } finally {
                channel.close();
            }
            throw e;
        }
    }
}
