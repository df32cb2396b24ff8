package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.LibC;
import io.remus.verbs.ffi.RdmaCm;
import io.remus.verbs.ffi.rdma_cm_id;
import io.remus.verbs.ffi.rdma_conn_param;
import io.remus.verbs.ffi.sockaddr_in;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.ADDRESS;

/** Creating and destroying connection manager ids, and the parameters both sides pass. */
final class CmIds {
    private CmIds() {
    }

    /**
     * @param channel the channel its events go to
     * @return a new {@code struct rdma_cm_id *} in the TCP port space
     */
    static MemorySegment create(CmEventChannel channel) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment out = arena.allocate(ADDRESS);
            VerbResults.checkMinusOne(RdmaCm.rdma_create_id(callState, channel.handle(), out, MemorySegment.NULL,
                    RdmaCm.RDMA_PS_TCP), callState, "rdma_create_id", "creating a connection manager id");
            return out.get(ADDRESS, 0).reinterpret(rdma_cm_id.sizeof());
        }
    }

    /**
     * @param id an id, or null
     * @throws VerbsException if {@code rdma_destroy_id} fails
     */
    static void destroy(MemorySegment id) {
        if (id == null) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            VerbResults.checkMinusOne(RdmaCm.rdma_destroy_id(callState, id), callState, "rdma_destroy_id",
                    "destroying a connection manager id");
        }
    }

    /**
     * @param arena   where to allocate it
     * @param address an IPv4 address literal
     * @param port    a TCP port, 0 to 65535
     * @return a {@code struct sockaddr_in}
     * @throws InvalidArgumentException if the address is not an IPv4 literal or the port is out of range
     */
    static MemorySegment ipv4(Arena arena, String address, int port) {
        if (port < 0 || port > 65535) {
            throw new InvalidArgumentException("port must be in [0, 65535], got " + port);
        }
        Objects.requireNonNull(address, "address");
        if (!address.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            throw new InvalidArgumentException("expected an IPv4 address literal, got " + address);
        }
        InetAddress inet;
        try {
            inet = InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new InvalidArgumentException("not an IPv4 address: " + address);
        }
        if (!(inet instanceof Inet4Address)) {
            throw new InvalidArgumentException("not an IPv4 address: " + address);
        }
        MemorySegment s = arena.allocate(sockaddr_in.layout());
        sockaddr_in.sin_family(s, (short) LibC.AF_INET);
        sockaddr_in.sin_port$hostOrder(s, port);
        MemorySegment.copy(MemorySegment.ofArray(inet.getAddress()), 0, s, sockaddr_in.sin_addr$OFFSET, 4);
        return s;
    }

    /**
     * @param arena   where to allocate it
     * @param context the device context (for its read/atomic limits)
     * @param offer   the private data: the region offered to the peer and, optionally, this side's id
     * @param options the READs/atomics this side issues and serves (capped by the device) and the
     *                retry counts; rdma_cm chooses the rest (MTU, ACK timeout, RNR timer, hop limit)
     * @return a {@code struct rdma_conn_param}
     */
    static MemorySegment connectionParameters(Arena arena, Context context, CmPrivateData offer,
                                              ConnectionOptions options) {
        MemorySegment p = arena.allocate(rdma_conn_param.layout());
        byte[] data = offer.toBytes();
        if (data.length > CmPrivateData.CONNECT_REQUEST_LIMIT) {
            throw new InvalidArgumentException("private data of " + data.length + " bytes is over rdma_cm's limit of "
                    + CmPrivateData.CONNECT_REQUEST_LIMIT + " for a connect request");
        }
        MemorySegment privateData = arena.allocate(data.length);
        MemorySegment.copy(MemorySegment.ofArray(data), 0, privateData, 0, data.length);
        rdma_conn_param.private_data(p, privateData);
        rdma_conn_param.private_data_len(p, (byte) data.length);
        DeviceAttributes a = context.queryDevice();
        rdma_conn_param.responder_resources(p, (byte) Math.min(options.maxDestReadAtomic(), a.maxQueuePairReadAtomic()));
        rdma_conn_param.initiator_depth(p, (byte) Math.min(options.maxReadAtomic(), a.maxQueuePairInitiatorReadAtomic()));
        rdma_conn_param.retry_count(p, (byte) options.retryCount());
        rdma_conn_param.rnr_retry_count(p, (byte) options.rnrRetry());
        return p;
    }

    /**
     * @param id      an id with a device
     * @param builder the queue pair's settings
     * @throws InvalidArgumentException if the id's device context is not the builder's
     */
    static void checkSameContext(MemorySegment id, QueuePairBuilder builder) {
        MemorySegment verbs = rdma_cm_id.verbs(id);
        if (verbs.address() != builder.protectionDomain().context().handle().address()) {
            throw new InvalidArgumentException("the connection's device context is not the protection domain's: open the"
                    + " context with Context.openForRdmaCm(name) on the device that holds the address");
        }
    }
}
