package io.remus.verbs.ffi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.OptionalLong;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sizes and offsets of the librdmacm and socket structs, as printed by a gcc probe
 * ({@code offsetof}/{@code sizeof}) against rdma-core 44 and glibc on x86-64.
 */
class RdmaCmLayoutTest {
    private static final List<Class<?>> STRUCTS = List.of(in_addr.class, in6_addr.class, sockaddr.class,
            sockaddr_in.class, sockaddr_in6.class, sockaddr_storage.class, rdma_ib_addr.class, rdma_addr.class,
            rdma_route.class, rdma_event_channel.class, rdma_cm_id.class, rdma_conn_param.class,
            rdma_ud_param.class, rdma_cm_event.class, rdma_addrinfo.class, pollfd.class);

    @Test
    void shouldMatchCSizesWhenComparedWithGccProbe() {
        assertEquals(4, in_addr.sizeof());
        assertEquals(16, in6_addr.sizeof());
        assertEquals(16, sockaddr.sizeof());
        assertEquals(16, sockaddr_in.sizeof());
        assertEquals(28, sockaddr_in6.sizeof());
        assertEquals(128, sockaddr_storage.sizeof());
        assertEquals(40, rdma_ib_addr.sizeof());
        assertEquals(296, rdma_addr.sizeof());
        assertEquals(312, rdma_route.sizeof());
        assertEquals(4, rdma_event_channel.sizeof());
        assertEquals(416, rdma_cm_id.sizeof());
        assertEquals(24, rdma_conn_param.sizeof());
        assertEquals(56, rdma_ud_param.sizeof());
        assertEquals(80, rdma_cm_event.sizeof());
        assertEquals(96, rdma_addrinfo.sizeof());
        assertEquals(8, pollfd.sizeof());
    }

    @Test
    void shouldMatchCAlignmentsWhenComparedWithGccProbe() {
        assertEquals(2, sockaddr.layout().byteAlignment());
        assertEquals(4, sockaddr_in6.layout().byteAlignment());
        assertEquals(8, sockaddr_storage.layout().byteAlignment());
        assertEquals(8, rdma_ib_addr.layout().byteAlignment());
        assertEquals(8, rdma_cm_id.layout().byteAlignment());
        assertEquals(4, pollfd.layout().byteAlignment());
    }

    @Test
    void shouldMatchCOffsetsWhenComparedWithGccProbe() {
        assertEquals(32, rdma_cm_id.route$OFFSET);
        assertEquals(344, rdma_cm_id.ps$OFFSET);
        assertEquals(348, rdma_cm_id.port_num$OFFSET);
        assertEquals(352, rdma_cm_id.event$OFFSET);
        assertEquals(400, rdma_cm_id.pd$OFFSET);
        assertEquals(408, rdma_cm_id.qp_type$OFFSET);
        assertEquals(128, rdma_addr.dst_addr$OFFSET);
        assertEquals(256, rdma_addr.addr$OFFSET);
        assertEquals(296, rdma_route.path_rec$OFFSET);
        assertEquals(304, rdma_route.num_paths$OFFSET);
        assertEquals(16, rdma_conn_param.qp_num$OFFSET);
        assertEquals(16, rdma_ud_param.ah_attr$OFFSET);
        assertEquals(52, rdma_ud_param.qkey$OFFSET);
        assertEquals(24, rdma_cm_event.param$OFFSET);
        assertEquals(88, rdma_addrinfo.ai_next$OFFSET);
        assertEquals(24, sockaddr_in6.sin6_scope_id$OFFSET);
        assertEquals(120, sockaddr_storage.__ss_align$OFFSET);
    }

    @Test
    void shouldAgreeWithLayoutWhenOffsetConstantsAreRead() throws ReflectiveOperationException {
        for (Class<?> struct : STRUCTS) {
            int checked = 0;
            GroupLayout layout = (GroupLayout) struct.getMethod("layout").invoke(null);
            for (Field f : struct.getFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getName().endsWith("$OFFSET")) {
                    String member = f.getName().substring(0, f.getName().length() - "$OFFSET".length());
                    OptionalLong offset = offsetOf(layout, member);
                    assertTrue(offset.isPresent(), struct.getSimpleName() + " has no member " + member);
                    assertEquals(offset.getAsLong(), f.getLong(null), struct.getSimpleName() + "." + member);
                    checked++;
                }
            }
            assertTrue(checked > 0, struct.getSimpleName() + " declares no offsets");
        }
    }

    @Test
    void shouldStoreNetworkOrderWhenPortIsSetInHostOrder() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sin = arena.allocate(sockaddr_in.layout());
            sockaddr_in.sin_port$hostOrder(sin, 4791);
            assertEquals((byte) 0x12, sin.get(JAVA_BYTE, sockaddr_in.sin_port$OFFSET));
            assertEquals((byte) 0xB7, sin.get(JAVA_BYTE, sockaddr_in.sin_port$OFFSET + 1));
            assertEquals(4791, sockaddr_in.sin_port$hostOrder(sin));

            MemorySegment sin6 = arena.allocate(sockaddr_in6.layout());
            sockaddr_in6.sin6_port$hostOrder(sin6, 65535);
            assertEquals(65535, sockaddr_in6.sin6_port$hostOrder(sin6));
        }
    }

    @Test
    void shouldRejectPortWhenOutOfRange() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sin = arena.allocate(sockaddr_in.layout());
            assertThrows(IllegalArgumentException.class, () -> sockaddr_in.sin_port$hostOrder(sin, 65536));
            assertThrows(IllegalArgumentException.class, () -> sockaddr_in.sin_port$hostOrder(sin, -1));
        }
    }

    private static OptionalLong offsetOf(GroupLayout layout, String member) {
        List<MemoryLayout> members = layout.memberLayouts();
        for (int i = 0; i < members.size(); i++) {
            MemoryLayout m = members.get(i);
            String name = m.name().orElse("");
            long base = layout.byteOffset(MemoryLayout.PathElement.groupElement(i));
            if (name.equals(member)) {
                return OptionalLong.of(base);
            }
            if (name.startsWith("$anon") && m instanceof GroupLayout nested) {
                OptionalLong inner = offsetOf(nested, member);
                if (inner.isPresent()) {
                    return OptionalLong.of(base + inner.getAsLong());
                }
            }
        }
        return OptionalLong.empty();
    }
}
