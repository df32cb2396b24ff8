package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_context {
 *     struct ibv_device      *device;
 *     struct ibv_context_ops    ops;
 *     int            cmd_fd;
 *     int            async_fd;
 *     int            num_comp_vectors;
 *     pthread_mutex_t        mutex;
 *     void               *abi_compat;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_context {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("device"),
            ibv_context_ops.layout().withName("ops"),
            JAVA_INT.withName("cmd_fd"),
            JAVA_INT.withName("async_fd"),
            JAVA_INT.withName("num_comp_vectors"),
            MemoryLayout.paddingLayout(4),
            MemoryLayout.sequenceLayout(40, JAVA_BYTE).withByteAlignment(8).withName("mutex"),
            ADDRESS.withName("abi_compat")
    ).withName("ibv_context");

    private ibv_context() {
    }

    /** {@return the layout of {@code struct ibv_context}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_context)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code device}. */
    public static final long device$OFFSET = 0;

    /** @param s a {@code struct ibv_context} @return {@code s->device} */
    public static MemorySegment device(MemorySegment s) {
        return s.get(ADDRESS, device$OFFSET);
    }

    /** @param s a {@code struct ibv_context} @param v the value for {@code s->device} */
    public static void device(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, device$OFFSET, v);
    }

    /** Offset of {@code ops}. */
    public static final long ops$OFFSET = 8;

    /** @param s a {@code struct ibv_context} @return the nested struct {@code s->ops}, as a slice of {@code s} */
    public static MemorySegment ops(MemorySegment s) {
        return s.asSlice(ops$OFFSET, 256);
    }

    /** Offset of {@code cmd_fd}. */
    public static final long cmd_fd$OFFSET = 264;

    /** @param s a {@code struct ibv_context} @return {@code s->cmd_fd} */
    public static int cmd_fd(MemorySegment s) {
        return s.get(JAVA_INT, cmd_fd$OFFSET);
    }

    /** @param s a {@code struct ibv_context} @param v the value for {@code s->cmd_fd} */
    public static void cmd_fd(MemorySegment s, int v) {
        s.set(JAVA_INT, cmd_fd$OFFSET, v);
    }

    /** Offset of {@code async_fd}. */
    public static final long async_fd$OFFSET = 268;

    /** @param s a {@code struct ibv_context} @return {@code s->async_fd} */
    public static int async_fd(MemorySegment s) {
        return s.get(JAVA_INT, async_fd$OFFSET);
    }

    /** @param s a {@code struct ibv_context} @param v the value for {@code s->async_fd} */
    public static void async_fd(MemorySegment s, int v) {
        s.set(JAVA_INT, async_fd$OFFSET, v);
    }

    /** Offset of {@code num_comp_vectors}. */
    public static final long num_comp_vectors$OFFSET = 272;

    /** @param s a {@code struct ibv_context} @return {@code s->num_comp_vectors} */
    public static int num_comp_vectors(MemorySegment s) {
        return s.get(JAVA_INT, num_comp_vectors$OFFSET);
    }

    /** @param s a {@code struct ibv_context} @param v the value for {@code s->num_comp_vectors} */
    public static void num_comp_vectors(MemorySegment s, int v) {
        s.set(JAVA_INT, num_comp_vectors$OFFSET, v);
    }

    /** Offset of {@code mutex}. */
    public static final long mutex$OFFSET = 280;

    /** @param s a {@code struct ibv_context} @return the opaque bytes of {@code s->mutex}, as a slice of {@code s} */
    public static MemorySegment mutex(MemorySegment s) {
        return s.asSlice(mutex$OFFSET, 40);
    }

    /** Offset of {@code abi_compat}. */
    public static final long abi_compat$OFFSET = 320;

    /** @param s a {@code struct ibv_context} @return {@code s->abi_compat} */
    public static MemorySegment abi_compat(MemorySegment s) {
        return s.get(ADDRESS, abi_compat$OFFSET);
    }

    /** @param s a {@code struct ibv_context} @param v the value for {@code s->abi_compat} */
    public static void abi_compat(MemorySegment s, MemorySegment v) {
        s.set(ADDRESS, abi_compat$OFFSET, v);
    }
}
