package io.remus.verbs.ffi;

import io.remus.verbs.testing.DeviceAddress;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A full rdma_cm connection through the raw layer on one RDMA device: listen, resolve, create
 * QPs, connect, accept, disconnect, every event waited for with poll(2) and a timeout. It checks
 * the raw structs that the safe layer's connection test ({@code CmConnectionTest}) does not read:
 * the private data and listen id of a connect request, the route's port, the QP type. Client and
 * server bind to the IPv4 address the test device carries ({@link DeviceAddress}).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RdmaCmLoopbackTest {
    private static final int PORT = 7471;
    private static final long QP_INIT_ATTR_SIZE = 64;
    private static final long QP_INIT_ATTR_CAP = 32;
    private static final long QP_INIT_ATTR_QP_TYPE = 52;
    private static final int IBV_QPT_RC = 2;

    private Arena arena;
    private MemorySegment callState;
    private MemorySegment channel;

    @BeforeEach
    void openChannel() {
        arena = Arena.ofConfined();
        callState = Errno.allocate(arena);
        MemorySegment ch = RdmaCm.rdma_create_event_channel(callState);
        assertFalse(ch.equals(MemorySegment.NULL), () -> "rdma_create_event_channel: " + Errno.describe(Errno.get(callState)));
        channel = ch.reinterpret(rdma_event_channel.sizeof());
        int fd = rdma_event_channel.fd(channel);
        int flags = LibC.fcntl(callState, fd, LibC.F_GETFL, 0);
        assertEquals(0, LibC.fcntl(callState, fd, LibC.F_SETFL, flags | LibC.O_NONBLOCK));
    }

    @AfterEach
    void closeChannel() {
        if (channel != null) {
            RdmaCm.rdma_destroy_event_channel(channel);
        }
        if (arena != null) {
            arena.close();
        }
    }

    @DeviceTest
    void shouldConnectAndDisconnectWhenClientAndServerShareOneDevice() throws UnknownHostException {
        String ipv4 = DeviceAddress.ipv4(DeviceTests.deviceName());
        MemorySegment address = sockaddrIn(InetAddress.getByName(ipv4).getAddress());
        MemorySegment listen = createId();
        assertOk(RdmaCm.rdma_bind_addr(callState, listen, address), "rdma_bind_addr");
        assertOk(RdmaCm.rdma_listen(callState, listen, 4), "rdma_listen");
        assertEquals(PORT, Short.toUnsignedInt(Short.reverseBytes(RdmaCm.rdma_get_src_port(listen))));

        MemorySegment client = createId();
        assertOk(RdmaCm.rdma_resolve_addr(callState, client, MemorySegment.NULL, address, 2000), "rdma_resolve_addr");
        ackExpecting(RdmaCm.RDMA_CM_EVENT_ADDR_RESOLVED, client);
        assertNotEquals(MemorySegment.NULL, rdma_cm_id.verbs(client));
        assertOk(RdmaCm.rdma_resolve_route(callState, client, 2000), "rdma_resolve_route");
        ackExpecting(RdmaCm.RDMA_CM_EVENT_ROUTE_RESOLVED, client);
        MemorySegment route = rdma_cm_id.route(client);
        assertEquals(PORT, sockaddr_in.sin_port$hostOrder(rdma_addr.dst_sin(rdma_route.addr(route))));
        assertOk(RdmaCm.rdma_create_qp(callState, client, MemorySegment.NULL, qpInitAttr()), "rdma_create_qp");
        assertEquals(IBV_QPT_RC, rdma_cm_id.qp_type(client));

        MemorySegment param = arena.allocate(rdma_conn_param.layout());
        rdma_conn_param.private_data(param, arena.allocateFrom("hello"));
        rdma_conn_param.private_data_len(param, (byte) 6);
        rdma_conn_param.initiator_depth(param, (byte) 1);
        rdma_conn_param.responder_resources(param, (byte) 1);
        rdma_conn_param.retry_count(param, (byte) 7);
        rdma_conn_param.rnr_retry_count(param, (byte) 7);
        assertOk(RdmaCm.rdma_connect(callState, client, param), "rdma_connect");

        MemorySegment request = nextEvent(RdmaCm.RDMA_CM_EVENT_CONNECT_REQUEST);
        assertEquals(listen.address(), rdma_cm_event.listen_id(request).address());
        MemorySegment server = rdma_cm_event.id(request).reinterpret(rdma_cm_id.sizeof());
        MemorySegment conn = rdma_cm_event.param_conn(request);
        assertEquals("hello", rdma_conn_param.private_data(conn).reinterpret(6).getString(0));
        assertOk(RdmaCm.rdma_ack_cm_event(callState, request), "rdma_ack_cm_event");
        assertOk(RdmaCm.rdma_create_qp(callState, server, MemorySegment.NULL, qpInitAttr()), "rdma_create_qp");
        assertOk(RdmaCm.rdma_accept(callState, server, param), "rdma_accept");
        ackExpecting(RdmaCm.RDMA_CM_EVENT_ESTABLISHED, null);
        ackExpecting(RdmaCm.RDMA_CM_EVENT_ESTABLISHED, null);

        assertOk(RdmaCm.rdma_disconnect(callState, client), "rdma_disconnect");
        ackExpecting(RdmaCm.RDMA_CM_EVENT_DISCONNECTED, server);
        assertOk(RdmaCm.rdma_disconnect(callState, server), "rdma_disconnect");
        ackExpecting(RdmaCm.RDMA_CM_EVENT_DISCONNECTED, client);
        RdmaCm.rdma_destroy_qp(client);
        RdmaCm.rdma_destroy_qp(server);
        assertOk(RdmaCm.rdma_destroy_id(callState, server), "rdma_destroy_id");
        assertOk(RdmaCm.rdma_destroy_id(callState, client), "rdma_destroy_id");
        assertOk(RdmaCm.rdma_destroy_id(callState, listen), "rdma_destroy_id");
    }

    private MemorySegment createId() {
        MemorySegment out = arena.allocate(ADDRESS);
        assertOk(RdmaCm.rdma_create_id(callState, channel, out, MemorySegment.NULL, RdmaCm.RDMA_PS_TCP), "rdma_create_id");
        return out.get(ADDRESS, 0).reinterpret(rdma_cm_id.sizeof());
    }

    private MemorySegment nextEvent(int expected) {
        MemorySegment pfd = arena.allocate(pollfd.layout());
        pollfd.fd(pfd, rdma_event_channel.fd(channel));
        pollfd.events(pfd, (short) LibC.POLLIN);
        assertEquals(1, LibC.poll(callState, pfd, 1, 10_000), "no rdma_cm event within 10 s");
        MemorySegment out = arena.allocate(ADDRESS);
        assertOk(RdmaCm.rdma_get_cm_event(callState, channel, out), "rdma_get_cm_event");
        MemorySegment event = out.get(ADDRESS, 0).reinterpret(rdma_cm_event.sizeof());
        assertEquals(expected, rdma_cm_event.event(event),
                () -> RdmaCm.rdma_event_str(rdma_cm_event.event(event)).reinterpret(64).getString(0));
        assertEquals(0, rdma_cm_event.status(event));
        return event;
    }

    private void ackExpecting(int expected, MemorySegment id) {
        MemorySegment event = nextEvent(expected);
        if (id != null) {
            assertEquals(id.address(), rdma_cm_event.id(event).address());
        }
        assertOk(RdmaCm.rdma_ack_cm_event(callState, event), "rdma_ack_cm_event");
    }

    private MemorySegment sockaddrIn(byte[] ipv4) {
        MemorySegment sin = arena.allocate(sockaddr_in.layout());
        sockaddr_in.sin_family(sin, (short) LibC.AF_INET);
        sockaddr_in.sin_port$hostOrder(sin, PORT);
        sockaddr_in.sin_addr(sin).copyFrom(MemorySegment.ofArray(ipv4));
        return sin;
    }

    /** A {@code struct ibv_qp_init_attr} for an RC QP with 4 WRs and 1 SGE each way (offsets from the gcc probe). */
    private MemorySegment qpInitAttr() {
        MemorySegment attr = arena.allocate(QP_INIT_ATTR_SIZE, 8);
        for (int i = 0; i < 4; i++) {
            attr.set(JAVA_INT, QP_INIT_ATTR_CAP + 4L * i, i < 2 ? 4 : 1);
        }
        attr.set(JAVA_INT, QP_INIT_ATTR_QP_TYPE, IBV_QPT_RC);
        return attr;
    }

    private void assertOk(int ret, String function) {
        assertEquals(0, ret, () -> function + ": " + Errno.describe(Errno.get(callState)));
    }
}
