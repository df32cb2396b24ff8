package io.remus.verbs.ffi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.UnionLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Struct layouts of the raw libibverbs layer: sizes and offsets measured with gcc against the
 * rdma-core 44 headers (x86_64), and each {@code $OFFSET} constant against its layout.
 */
class IbvLayoutTest {
    private static final List<Class<?>> STRUCTS = List.of(
            ibv_ah.class, ibv_ah_attr.class, ibv_async_event.class, ibv_comp_channel.class, ibv_context.class, ibv_context_ops.class,
            ibv_cq.class, ibv_cq_moderation_caps.class, ibv_device.class, ibv_device_attr.class,
            ibv_device_attr_ex.class, ibv_gid.class, ibv_global_route.class, ibv_mr.class, ibv_mw_bind_info.class,
            ibv_odp_caps.class, ibv_packet_pacing_caps.class, ibv_pci_atomic_caps.class, ibv_pd.class,
            ibv_port_attr.class, ibv_qp.class, ibv_qp_attr.class, ibv_qp_cap.class, ibv_qp_ex.class,
            ibv_qp_init_attr.class, ibv_query_device_ex_input.class, ibv_recv_wr.class, ibv_rss_caps.class,
            ibv_send_wr.class, ibv_sge.class, ibv_srq.class, ibv_srq_attr.class, ibv_srq_init_attr.class,
            ibv_tm_caps.class, ibv_tso_caps.class, ibv_wc.class, IbVerbs.verbs_context.class);

    @Test
    void shouldMatchGccSizesWhenComparedWithRdmaCore44() {
        assertEquals(48, ibv_wc.sizeof());
        assertEquals(16, ibv_async_event.sizeof());
        assertEquals(128, ibv_send_wr.sizeof());
        assertEquals(32, ibv_recv_wr.sizeof());
        assertEquals(144, ibv_qp_attr.sizeof());
        assertEquals(64, ibv_qp_init_attr.sizeof());
        assertEquals(52, ibv_port_attr.sizeof());
        assertEquals(232, ibv_device_attr.sizeof());
        assertEquals(400, ibv_device_attr_ex.sizeof());
        assertEquals(664, ibv_device.sizeof());
        assertEquals(256, ibv_context_ops.sizeof());
        assertEquals(328, ibv_context.sizeof());
        assertEquals(160, ibv_qp.sizeof());
        assertEquals(352, ibv_qp_ex.sizeof());
        assertEquals(128, ibv_cq.sizeof());
        assertEquals(128, ibv_srq.sizeof());
        assertEquals(16, ibv_gid.sizeof());
        assertEquals(648, IbVerbs.verbs_context.sizeof());
    }

    @Test
    void shouldMatchGccOffsetsWhenComparedWithRdmaCore44() {
        assertEquals(200, ibv_context_ops.post_send$OFFSET);
        assertEquals(88, ibv_context_ops.poll_cq$OFFSET);
        assertEquals(8, ibv_context.ops$OFFSET);
        assertEquals(320, ibv_context.abi_compat$OFFSET);
        assertEquals(24, ibv_wc.imm_data$OFFSET);
        assertEquals(36, ibv_wc.wc_flags$OFFSET);
        assertEquals(45, ibv_wc.dlid_path_bits$OFFSET);
        assertEquals(36, ibv_send_wr.imm_data$OFFSET);
        assertEquals(40, ibv_send_wr.wr$OFFSET);
        assertEquals(8, ibv_send_wr.wr.atomic.compare_add$OFFSET);
        assertEquals(24, ibv_send_wr.wr.atomic.rkey$OFFSET);
        assertEquals(80, ibv_send_wr.bind_mw$OFFSET);
        assertEquals(56, ibv_qp_attr.ah_attr$OFFSET);
        assertEquals(130, ibv_qp_attr.timeout$OFFSET);
        assertEquals(46, ibv_port_attr.link_layer$OFFSET);
        assertEquals(320, IbVerbs.verbs_context.context$OFFSET);
        assertEquals(216, IbVerbs.verbs_context.query_device_ex$OFFSET);
    }

    @Test
    void shouldAgreeWithLayoutWhenReadingEveryOffsetConstant() throws IllegalAccessException {
        List<String> checked = new ArrayList<>();
        for (Class<?> c : STRUCTS) {
            check(c, checked);
        }
        assertTrue(checked.size() > 300, "checked " + checked.size() + " offsets");
    }

    private static void check(Class<?> c, List<String> checked) throws IllegalAccessException {
        GroupLayout layout = layoutOf(c);
        for (Field f : c.getDeclaredFields()) {
            if (f.getName().endsWith("$OFFSET") && Modifier.isStatic(f.getModifiers())) {
                String member = f.getName().substring(0, f.getName().length() - "$OFFSET".length());
                assertEquals(find(layout, member, 0), f.getLong(null), c.getName() + "." + member);
                checked.add(c.getName() + "." + member);
            }
        }
        for (Class<?> nested : c.getDeclaredClasses()) {
            if (Modifier.isPublic(nested.getModifiers())) {
                assertEquals(layoutOf(nested).byteSize(), member(layout, nested.getSimpleName()).byteSize(),
                        nested.getName());
                check(nested, checked);
            }
        }
    }

    private static GroupLayout layoutOf(Class<?> c) {
        try {
            return (GroupLayout) c.getMethod("layout").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(c + " has no layout()", e);
        }
    }

    private static MemoryLayout member(GroupLayout layout, String member) {
        for (MemoryLayout m : layout.memberLayouts()) {
            String name = m.name().orElse("");
            if (name.equals(member)) {
                return m;
            }
            if (name.startsWith("$anon")) {
                MemoryLayout inner = member((GroupLayout) m, member);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    private static long find(GroupLayout layout, String member, long base) {
        long offset = 0;
        for (MemoryLayout m : layout.memberLayouts()) {
            long here = layout instanceof UnionLayout ? base : base + offset;
            String name = m.name().orElse("");
            if (name.equals(member)) {
                return here;
            }
            if (name.startsWith("$anon")) {
                long inner = find((GroupLayout) m, member, here);
                if (inner >= 0) {
                    return inner;
                }
            }
            offset += m.byteSize();
        }
        return -1;
    }
}
