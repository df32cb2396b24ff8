package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@snippet lang = c:
 * struct ibv_device_attr_ex {
 *     struct ibv_device_attr    orig_attr;
 *     uint32_t        comp_mask;
 *     struct ibv_odp_caps    odp_caps;
 *     uint64_t        completion_timestamp_mask;
 *     uint64_t        hca_core_clock;
 *     uint64_t        device_cap_flags_ex;
 *     struct ibv_tso_caps    tso_caps;
 *     struct ibv_rss_caps     rss_caps;
 *     uint32_t        max_wq_type_rq;
 *     struct ibv_packet_pacing_caps packet_pacing_caps;
 *     uint32_t        raw_packet_caps;
 *     struct ibv_tm_caps    tm_caps;
 *     struct ibv_cq_moderation_caps  cq_mod_caps;
 *     uint64_t max_dm_size;
 *     struct ibv_pci_atomic_caps pci_atomic_caps;
 *     uint32_t xrc_odp_caps;
 *     uint32_t phys_port_cnt_ex;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_device_attr_ex {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ibv_device_attr.layout().withName("orig_attr"),
            JAVA_INT.withName("comp_mask"),
            MemoryLayout.paddingLayout(4),
            ibv_odp_caps.layout().withName("odp_caps"),
            JAVA_LONG.withName("completion_timestamp_mask"),
            JAVA_LONG.withName("hca_core_clock"),
            JAVA_LONG.withName("device_cap_flags_ex"),
            ibv_tso_caps.layout().withName("tso_caps"),
            ibv_rss_caps.layout().withName("rss_caps"),
            JAVA_INT.withName("max_wq_type_rq"),
            ibv_packet_pacing_caps.layout().withName("packet_pacing_caps"),
            JAVA_INT.withName("raw_packet_caps"),
            ibv_tm_caps.layout().withName("tm_caps"),
            ibv_cq_moderation_caps.layout().withName("cq_mod_caps"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("max_dm_size"),
            ibv_pci_atomic_caps.layout().withName("pci_atomic_caps"),
            MemoryLayout.paddingLayout(2),
            JAVA_INT.withName("xrc_odp_caps"),
            JAVA_INT.withName("phys_port_cnt_ex")
    ).withName("ibv_device_attr_ex");

    private ibv_device_attr_ex() {
    }

    /** {@return the layout of {@code struct ibv_device_attr_ex}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_device_attr_ex)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code orig_attr}. */
    public static final long orig_attr$OFFSET = 0;

    /** @param s a {@code struct ibv_device_attr_ex} @return the nested struct {@code s->orig_attr}, as a slice of {@code s} */
    public static MemorySegment orig_attr(MemorySegment s) {
        return s.asSlice(orig_attr$OFFSET, 232);
    }

    /** Offset of {@code comp_mask}. */
    public static final long comp_mask$OFFSET = 232;

    /** @param s a {@code struct ibv_device_attr_ex} @return {@code s->comp_mask} */
    public static int comp_mask(MemorySegment s) {
        return s.get(JAVA_INT, comp_mask$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr_ex} @param v the value for {@code s->comp_mask} */
    public static void comp_mask(MemorySegment s, int v) {
        s.set(JAVA_INT, comp_mask$OFFSET, v);
    }

    /** Offset of {@code odp_caps}. */
    public static final long odp_caps$OFFSET = 240;

    /** @param s a {@code struct ibv_device_attr_ex} @return the nested struct {@code s->odp_caps}, as a slice of {@code s} */
    public static MemorySegment odp_caps(MemorySegment s) {
        return s.asSlice(odp_caps$OFFSET, 24);
    }

    /** Offset of {@code completion_timestamp_mask}. */
    public static final long completion_timestamp_mask$OFFSET = 264;

    /** @param s a {@code struct ibv_device_attr_ex} @return {@code s->completion_timestamp_mask} */
    public static long completion_timestamp_mask(MemorySegment s) {
        return s.get(JAVA_LONG, completion_timestamp_mask$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr_ex} @param v the value for {@code s->completion_timestamp_mask} */
    public static void completion_timestamp_mask(MemorySegment s, long v) {
        s.set(JAVA_LONG, completion_timestamp_mask$OFFSET, v);
    }

    /** Offset of {@code hca_core_clock}. */
    public static final long hca_core_clock$OFFSET = 272;

    /** @param s a {@code struct ibv_device_attr_ex} @return {@code s->hca_core_clock} */
    public static long hca_core_clock(MemorySegment s) {
        return s.get(JAVA_LONG, hca_core_clock$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr_ex} @param v the value for {@code s->hca_core_clock} */
    public static void hca_core_clock(MemorySegment s, long v) {
        s.set(JAVA_LONG, hca_core_clock$OFFSET, v);
    }

    /** Offset of {@code device_cap_flags_ex}. */
    public static final long device_cap_flags_ex$OFFSET = 280;

    /** @param s a {@code struct ibv_device_attr_ex} @return {@code s->device_cap_flags_ex} */
    public static long device_cap_flags_ex(MemorySegment s) {
        return s.get(JAVA_LONG, device_cap_flags_ex$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr_ex} @param v the value for {@code s->device_cap_flags_ex} */
    public static void device_cap_flags_ex(MemorySegment s, long v) {
        s.set(JAVA_LONG, device_cap_flags_ex$OFFSET, v);
    }

    /** Offset of {@code tso_caps}. */
    public static final long tso_caps$OFFSET = 288;

    /** @param s a {@code struct ibv_device_attr_ex} @return the nested struct {@code s->tso_caps}, as a slice of {@code s} */
    public static MemorySegment tso_caps(MemorySegment s) {
        return s.asSlice(tso_caps$OFFSET, 8);
    }

    /** Offset of {@code rss_caps}. */
    public static final long rss_caps$OFFSET = 296;

    /** @param s a {@code struct ibv_device_attr_ex} @return the nested struct {@code s->rss_caps}, as a slice of {@code s} */
    public static MemorySegment rss_caps(MemorySegment s) {
        return s.asSlice(rss_caps$OFFSET, 32);
    }

    /** Offset of {@code max_wq_type_rq}. */
    public static final long max_wq_type_rq$OFFSET = 328;

    /** @param s a {@code struct ibv_device_attr_ex} @return {@code s->max_wq_type_rq} */
    public static int max_wq_type_rq(MemorySegment s) {
        return s.get(JAVA_INT, max_wq_type_rq$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr_ex} @param v the value for {@code s->max_wq_type_rq} */
    public static void max_wq_type_rq(MemorySegment s, int v) {
        s.set(JAVA_INT, max_wq_type_rq$OFFSET, v);
    }

    /** Offset of {@code packet_pacing_caps}. */
    public static final long packet_pacing_caps$OFFSET = 332;

    /** @param s a {@code struct ibv_device_attr_ex} @return the nested struct {@code s->packet_pacing_caps}, as a slice of {@code s} */
    public static MemorySegment packet_pacing_caps(MemorySegment s) {
        return s.asSlice(packet_pacing_caps$OFFSET, 12);
    }

    /** Offset of {@code raw_packet_caps}. */
    public static final long raw_packet_caps$OFFSET = 344;

    /** @param s a {@code struct ibv_device_attr_ex} @return {@code s->raw_packet_caps} */
    public static int raw_packet_caps(MemorySegment s) {
        return s.get(JAVA_INT, raw_packet_caps$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr_ex} @param v the value for {@code s->raw_packet_caps} */
    public static void raw_packet_caps(MemorySegment s, int v) {
        s.set(JAVA_INT, raw_packet_caps$OFFSET, v);
    }

    /** Offset of {@code tm_caps}. */
    public static final long tm_caps$OFFSET = 348;

    /** @param s a {@code struct ibv_device_attr_ex} @return the nested struct {@code s->tm_caps}, as a slice of {@code s} */
    public static MemorySegment tm_caps(MemorySegment s) {
        return s.asSlice(tm_caps$OFFSET, 20);
    }

    /** Offset of {@code cq_mod_caps}. */
    public static final long cq_mod_caps$OFFSET = 368;

    /** @param s a {@code struct ibv_device_attr_ex} @return the nested struct {@code s->cq_mod_caps}, as a slice of {@code s} */
    public static MemorySegment cq_mod_caps(MemorySegment s) {
        return s.asSlice(cq_mod_caps$OFFSET, 4);
    }

    /** Offset of {@code max_dm_size}. */
    public static final long max_dm_size$OFFSET = 376;

    /** @param s a {@code struct ibv_device_attr_ex} @return {@code s->max_dm_size} */
    public static long max_dm_size(MemorySegment s) {
        return s.get(JAVA_LONG, max_dm_size$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr_ex} @param v the value for {@code s->max_dm_size} */
    public static void max_dm_size(MemorySegment s, long v) {
        s.set(JAVA_LONG, max_dm_size$OFFSET, v);
    }

    /** Offset of {@code pci_atomic_caps}. */
    public static final long pci_atomic_caps$OFFSET = 384;

    /** @param s a {@code struct ibv_device_attr_ex} @return the nested struct {@code s->pci_atomic_caps}, as a slice of {@code s} */
    public static MemorySegment pci_atomic_caps(MemorySegment s) {
        return s.asSlice(pci_atomic_caps$OFFSET, 6);
    }

    /** Offset of {@code xrc_odp_caps}. */
    public static final long xrc_odp_caps$OFFSET = 392;

    /** @param s a {@code struct ibv_device_attr_ex} @return {@code s->xrc_odp_caps} */
    public static int xrc_odp_caps(MemorySegment s) {
        return s.get(JAVA_INT, xrc_odp_caps$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr_ex} @param v the value for {@code s->xrc_odp_caps} */
    public static void xrc_odp_caps(MemorySegment s, int v) {
        s.set(JAVA_INT, xrc_odp_caps$OFFSET, v);
    }

    /** Offset of {@code phys_port_cnt_ex}. */
    public static final long phys_port_cnt_ex$OFFSET = 396;

    /** @param s a {@code struct ibv_device_attr_ex} @return {@code s->phys_port_cnt_ex} */
    public static int phys_port_cnt_ex(MemorySegment s) {
        return s.get(JAVA_INT, phys_port_cnt_ex$OFFSET);
    }

    /** @param s a {@code struct ibv_device_attr_ex} @param v the value for {@code s->phys_port_cnt_ex} */
    public static void phys_port_cnt_ex(MemorySegment s, int v) {
        s.set(JAVA_INT, phys_port_cnt_ex$OFFSET, v);
    }
}
