package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@snippet lang = c:
 * struct ibv_device {
 *     struct _ibv_device_ops    _ops;
 *     enum ibv_node_type    node_type;
 *     enum ibv_transport_type    transport_type;
 *     char            name[IBV_SYSFS_NAME_MAX];
 *     char            dev_name[IBV_SYSFS_NAME_MAX];
 *     char            dev_path[IBV_SYSFS_PATH_MAX];
 *     char            ibdev_path[IBV_SYSFS_PATH_MAX];
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_device {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            _ops.layout().withName("_ops"),
            JAVA_INT.withName("node_type"),
            JAVA_INT.withName("transport_type"),
            MemoryLayout.sequenceLayout(64, JAVA_BYTE).withName("name"),
            MemoryLayout.sequenceLayout(64, JAVA_BYTE).withName("dev_name"),
            MemoryLayout.sequenceLayout(256, JAVA_BYTE).withName("dev_path"),
            MemoryLayout.sequenceLayout(256, JAVA_BYTE).withName("ibdev_path")
    ).withName("ibv_device");

    private ibv_device() {
    }

    /** {@return the layout of {@code struct ibv_device}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_device)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code _ops}. */
    public static final long _ops$OFFSET = 0;

    /** @param s a {@code struct ibv_device} @return the nested member {@code s->_ops}, as a slice of {@code s} */
    public static MemorySegment _ops(MemorySegment s) {
        return s.asSlice(_ops$OFFSET, 16);
    }

    /** Offset of {@code node_type}. */
    public static final long node_type$OFFSET = 16;

    /** @param s a {@code struct ibv_device} @return {@code s->node_type} */
    public static int node_type(MemorySegment s) {
        return s.get(JAVA_INT, node_type$OFFSET);
    }

    /** @param s a {@code struct ibv_device} @param v the value for {@code s->node_type} */
    public static void node_type(MemorySegment s, int v) {
        s.set(JAVA_INT, node_type$OFFSET, v);
    }

    /** Offset of {@code transport_type}. */
    public static final long transport_type$OFFSET = 20;

    /** @param s a {@code struct ibv_device} @return {@code s->transport_type} */
    public static int transport_type(MemorySegment s) {
        return s.get(JAVA_INT, transport_type$OFFSET);
    }

    /** @param s a {@code struct ibv_device} @param v the value for {@code s->transport_type} */
    public static void transport_type(MemorySegment s, int v) {
        s.set(JAVA_INT, transport_type$OFFSET, v);
    }

    /** Offset of {@code name}. */
    public static final long name$OFFSET = 24;

    /** @param s a {@code struct ibv_device} @return the array {@code s->name}, as a slice of {@code s} */
    public static MemorySegment name(MemorySegment s) {
        return s.asSlice(name$OFFSET, 64);
    }

    /** Offset of {@code dev_name}. */
    public static final long dev_name$OFFSET = 88;

    /** @param s a {@code struct ibv_device} @return the array {@code s->dev_name}, as a slice of {@code s} */
    public static MemorySegment dev_name(MemorySegment s) {
        return s.asSlice(dev_name$OFFSET, 64);
    }

    /** Offset of {@code dev_path}. */
    public static final long dev_path$OFFSET = 152;

    /** @param s a {@code struct ibv_device} @return the array {@code s->dev_path}, as a slice of {@code s} */
    public static MemorySegment dev_path(MemorySegment s) {
        return s.asSlice(dev_path$OFFSET, 256);
    }

    /** Offset of {@code ibdev_path}. */
    public static final long ibdev_path$OFFSET = 408;

    /** @param s a {@code struct ibv_device} @return the array {@code s->ibdev_path}, as a slice of {@code s} */
    public static MemorySegment ibdev_path(MemorySegment s) {
        return s.asSlice(ibdev_path$OFFSET, 256);
    }

    /** The {@code struct} member {@code _ops} of {@code struct ibv_device}; its offsets are relative to that member. */
    public static final class _ops {
        private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
                ADDRESS.withName("_dummy1"),
                ADDRESS.withName("_dummy2")
        ).withName("_ops");

        private _ops() {
        }

        /** {@return the layout of {@code ibv_device._ops}} */
        public static GroupLayout layout() {
            return $LAYOUT;
        }

        /** {@return {@code sizeof(ibv_device._ops)}} */
        public static long sizeof() {
            return $LAYOUT.byteSize();
        }

        /** Offset of {@code _dummy1}. */
        public static final long _dummy1$OFFSET = 0;

        /** @param s a {@code ibv_device._ops} @return {@code s->_dummy1} */
        public static MemorySegment _dummy1(MemorySegment s) {
            return s.get(ADDRESS, _dummy1$OFFSET);
        }

        /** @param s a {@code ibv_device._ops} @param v the value for {@code s->_dummy1} */
        public static void _dummy1(MemorySegment s, MemorySegment v) {
            s.set(ADDRESS, _dummy1$OFFSET, v);
        }

        /** Offset of {@code _dummy2}. */
        public static final long _dummy2$OFFSET = 8;

        /** @param s a {@code ibv_device._ops} @return {@code s->_dummy2} */
        public static MemorySegment _dummy2(MemorySegment s) {
            return s.get(ADDRESS, _dummy2$OFFSET);
        }

        /** @param s a {@code ibv_device._ops} @param v the value for {@code s->_dummy2} */
        public static void _dummy2(MemorySegment s, MemorySegment v) {
            s.set(ADDRESS, _dummy2$OFFSET, v);
        }
    }
}
