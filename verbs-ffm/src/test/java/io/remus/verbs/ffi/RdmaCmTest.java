package io.remus.verbs.ffi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** librdmacm on whatever host runs the build: with or without an RDMA stack, nothing may crash. */
@Timeout(10)
class RdmaCmTest {

    @Test
    void shouldCreatePollableChannelOrReportErrnoWhenHostMayLackRdma() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment channel = RdmaCm.rdma_create_event_channel(callState);
            if (channel.equals(MemorySegment.NULL)) {
                int errno = Errno.get(callState);
                assertNotEquals(0, errno);
                assertFalse(Errno.describe(errno).isBlank());
                return;
            }
            MemorySegment ch = channel.reinterpret(rdma_event_channel.sizeof());
            int fd = rdma_event_channel.fd(ch);
            assertTrue(fd >= 0);
            int flags = LibC.fcntl(callState, fd, LibC.F_GETFL, 0);
            assertEquals(0, LibC.fcntl(callState, fd, LibC.F_SETFL, flags | LibC.O_NONBLOCK));
            MemorySegment pfd = arena.allocate(pollfd.layout());
            pollfd.fd(pfd, fd);
            pollfd.events(pfd, (short) LibC.POLLIN);
            assertEquals(0, LibC.poll(callState, pfd, 1, 10));
            MemorySegment event = arena.allocate(ADDRESS);
            assertEquals(-1, RdmaCm.rdma_get_cm_event(callState, ch, event));
            assertEquals(Errno.EAGAIN, Errno.get(callState));
            RdmaCm.rdma_destroy_event_channel(ch);
        }
    }

    @Test
    void shouldNameEventTypeWhenAskedForItsString() {
        MemorySegment name = RdmaCm.rdma_event_str(RdmaCm.RDMA_CM_EVENT_ESTABLISHED);
        assertEquals("RDMA_CM_EVENT_ESTABLISHED", name.reinterpret(64).getString(0));
    }

    @Test
    void shouldResolveNumericAddressOrReportErrorWhenGetaddrinfoIsCalled() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment hints = arena.allocate(rdma_addrinfo.layout());
            rdma_addrinfo.ai_flags(hints, RdmaCm.RAI_NUMERICHOST);
            rdma_addrinfo.ai_port_space(hints, RdmaCm.RDMA_PS_TCP);
            MemorySegment res = arena.allocate(ADDRESS);
            int ret = RdmaCm.rdma_getaddrinfo(callState, arena.allocateFrom("127.0.0.1"),
                    arena.allocateFrom("7471"), hints, res);
            if (ret != 0) {
                assertEquals(-1, ret, "an EAI_* code for a numeric address");
                assertNotEquals(0, Errno.get(callState));
                return;
            }
            MemorySegment info = res.get(ADDRESS, 0).reinterpret(rdma_addrinfo.sizeof());
            assertEquals(sockaddr_in.sizeof(), rdma_addrinfo.ai_dst_len(info));
            MemorySegment dst = rdma_addrinfo.ai_dst_addr(info).reinterpret(sockaddr_in.sizeof());
            assertEquals(LibC.AF_INET, sockaddr_in.sin_family(dst));
            assertEquals(7471, sockaddr_in.sin_port$hostOrder(dst));
            assertEquals(0x0100007F, sockaddr_in.sin_addr(dst).get(JAVA_INT, 0));
            RdmaCm.rdma_freeaddrinfo(info);
        }
    }

    @Test
    void shouldRejectNullPointersBeforeNativeCodeWhenIdOrChannelIsMissing() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment out = arena.allocate(ADDRESS);
            assertThrows(IllegalArgumentException.class, () -> RdmaCm.rdma_destroy_id(callState, MemorySegment.NULL));
            assertThrows(IllegalArgumentException.class, () -> RdmaCm.rdma_destroy_event_channel(MemorySegment.NULL));
            assertThrows(IllegalArgumentException.class,
                    () -> RdmaCm.rdma_get_cm_event(callState, MemorySegment.NULL, out));
            assertThrows(IllegalArgumentException.class,
                    () -> RdmaCm.rdma_create_id(callState, MemorySegment.NULL, MemorySegment.NULL,
                            MemorySegment.NULL, RdmaCm.RDMA_PS_TCP));
            assertThrows(IllegalArgumentException.class, () -> RdmaCm.rdma_ack_cm_event(callState, MemorySegment.NULL));
            assertThrows(NullPointerException.class, () -> RdmaCm.rdma_disconnect(callState, null));
        }
    }

    @Test
    void shouldRejectOptionLengthBeforeNativeCodeWhenItExceedsTheValue() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment fakeId = arena.allocate(rdma_cm_id.layout());
            MemorySegment value = arena.allocate(JAVA_INT);
            assertThrows(IllegalArgumentException.class, () -> RdmaCm.rdma_set_option(callState, fakeId,
                    RdmaCm.RDMA_OPTION_ID, RdmaCm.RDMA_OPTION_ID_REUSEADDR, value, 8));
        }
    }
}
