package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@snippet lang = c:
 * struct ibv_rss_caps {
 *     uint32_t supported_qpts;
 *     uint32_t max_rwq_indirection_tables;
 *     uint32_t max_rwq_indirection_table_size;
 *     uint64_t rx_hash_fields_mask;
 *     uint8_t  rx_hash_function;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_rss_caps {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("supported_qpts"),
            JAVA_INT.withName("max_rwq_indirection_tables"),
            JAVA_INT.withName("max_rwq_indirection_table_size"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("rx_hash_fields_mask"),
            JAVA_BYTE.withName("rx_hash_function"),
            MemoryLayout.paddingLayout(7)
    ).withName("ibv_rss_caps");

    private ibv_rss_caps() {
    }

    /** {@return the layout of {@code struct ibv_rss_caps}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_rss_caps)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code supported_qpts}. */
    public static final long supported_qpts$OFFSET = 0;

    /** @param s a {@code struct ibv_rss_caps} @return {@code s->supported_qpts} */
    public static int supported_qpts(MemorySegment s) {
        return s.get(JAVA_INT, supported_qpts$OFFSET);
    }

    /** @param s a {@code struct ibv_rss_caps} @param v the value for {@code s->supported_qpts} */
    public static void supported_qpts(MemorySegment s, int v) {
        s.set(JAVA_INT, supported_qpts$OFFSET, v);
    }

    /** Offset of {@code max_rwq_indirection_tables}. */
    public static final long max_rwq_indirection_tables$OFFSET = 4;

    /** @param s a {@code struct ibv_rss_caps} @return {@code s->max_rwq_indirection_tables} */
    public static int max_rwq_indirection_tables(MemorySegment s) {
        return s.get(JAVA_INT, max_rwq_indirection_tables$OFFSET);
    }

    /** @param s a {@code struct ibv_rss_caps} @param v the value for {@code s->max_rwq_indirection_tables} */
    public static void max_rwq_indirection_tables(MemorySegment s, int v) {
        s.set(JAVA_INT, max_rwq_indirection_tables$OFFSET, v);
    }

    /** Offset of {@code max_rwq_indirection_table_size}. */
    public static final long max_rwq_indirection_table_size$OFFSET = 8;

    /** @param s a {@code struct ibv_rss_caps} @return {@code s->max_rwq_indirection_table_size} */
    public static int max_rwq_indirection_table_size(MemorySegment s) {
        return s.get(JAVA_INT, max_rwq_indirection_table_size$OFFSET);
    }

    /** @param s a {@code struct ibv_rss_caps} @param v the value for {@code s->max_rwq_indirection_table_size} */
    public static void max_rwq_indirection_table_size(MemorySegment s, int v) {
        s.set(JAVA_INT, max_rwq_indirection_table_size$OFFSET, v);
    }

    /** Offset of {@code rx_hash_fields_mask}. */
    public static final long rx_hash_fields_mask$OFFSET = 16;

    /** @param s a {@code struct ibv_rss_caps} @return {@code s->rx_hash_fields_mask} */
    public static long rx_hash_fields_mask(MemorySegment s) {
        return s.get(JAVA_LONG, rx_hash_fields_mask$OFFSET);
    }

    /** @param s a {@code struct ibv_rss_caps} @param v the value for {@code s->rx_hash_fields_mask} */
    public static void rx_hash_fields_mask(MemorySegment s, long v) {
        s.set(JAVA_LONG, rx_hash_fields_mask$OFFSET, v);
    }

    /** Offset of {@code rx_hash_function}. */
    public static final long rx_hash_function$OFFSET = 24;

    /** @param s a {@code struct ibv_rss_caps} @return {@code s->rx_hash_function} */
    public static byte rx_hash_function(MemorySegment s) {
        return s.get(JAVA_BYTE, rx_hash_function$OFFSET);
    }

    /** @param s a {@code struct ibv_rss_caps} @param v the value for {@code s->rx_hash_function} */
    public static void rx_hash_function(MemorySegment s, byte v) {
        s.set(JAVA_BYTE, rx_hash_function$OFFSET, v);
    }
}
