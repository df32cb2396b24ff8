package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct sockaddr_in6 {
 *     sa_family_t     sin6_family;
 *     in_port_t       sin6_port;      // network byte order
 *     uint32_t        sin6_flowinfo;
 *     struct in6_addr sin6_addr;      // network byte order
 *     uint32_t        sin6_scope_id;
 * }
 * }
 *
 * <p>{@link #sin6_port(MemorySegment)} reads the raw {@code in_port_t} as C stores it (network
 * byte order); {@link #sin6_port$hostOrder(MemorySegment)} and
 * {@link #sin6_port$hostOrder(MemorySegment, int)} convert to and from a host-order port.
 */
@SuppressWarnings("checkstyle:TypeName")
public final class sockaddr_in6 {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_SHORT.withName("sin6_family"),
            JAVA_SHORT.withName("sin6_port"),
            JAVA_INT.withName("sin6_flowinfo"),
            in6_addr.layout().withName("sin6_addr"),
            JAVA_INT.withName("sin6_scope_id")
    ).withName("sockaddr_in6");

    private sockaddr_in6() {
    }

    /** {@return the layout of {@code struct sockaddr_in6}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct sockaddr_in6)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code sin6_family}. */
    public static final long sin6_family$OFFSET = 0;
    /** Offset of {@code sin6_port}. */
    public static final long sin6_port$OFFSET = 2;
    /** Offset of {@code sin6_flowinfo}. */
    public static final long sin6_flowinfo$OFFSET = 4;
    /** Offset of {@code sin6_addr}. */
    public static final long sin6_addr$OFFSET = 8;
    /** Offset of {@code sin6_scope_id}. */
    public static final long sin6_scope_id$OFFSET = 24;

    /** @param s a {@code struct sockaddr_in6} @return {@code s->sin6_family} */
    public static short sin6_family(MemorySegment s) {
        return s.get(JAVA_SHORT, sin6_family$OFFSET);
    }

    /** @param s a {@code struct sockaddr_in6} @param v the value for {@code s->sin6_family} */
    public static void sin6_family(MemorySegment s, short v) {
        s.set(JAVA_SHORT, sin6_family$OFFSET, v);
    }

    /** @param s a {@code struct sockaddr_in6} @return {@code s->sin6_port} */
    public static short sin6_port(MemorySegment s) {
        return s.get(JAVA_SHORT, sin6_port$OFFSET);
    }

    /** @param s a {@code struct sockaddr_in6} @param v the value for {@code s->sin6_port} */
    public static void sin6_port(MemorySegment s, short v) {
        s.set(JAVA_SHORT, sin6_port$OFFSET, v);
    }

    /** @param s a {@code struct sockaddr_in6} @return {@code s->sin6_flowinfo} */
    public static int sin6_flowinfo(MemorySegment s) {
        return s.get(JAVA_INT, sin6_flowinfo$OFFSET);
    }

    /** @param s a {@code struct sockaddr_in6} @param v the value for {@code s->sin6_flowinfo} */
    public static void sin6_flowinfo(MemorySegment s, int v) {
        s.set(JAVA_INT, sin6_flowinfo$OFFSET, v);
    }

    /** @param s a {@code struct sockaddr_in6} @return a slice over {@code s->sin6_addr} (16 bytes) */
    public static MemorySegment sin6_addr(MemorySegment s) {
        return s.asSlice(sin6_addr$OFFSET, 16);
    }

    /** @param s a {@code struct sockaddr_in6} @param v copied into {@code s->sin6_addr} (16 bytes) */
    public static void sin6_addr(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, sin6_addr$OFFSET, 16);
    }

    /** @param s a {@code struct sockaddr_in6} @return {@code s->sin6_scope_id} */
    public static int sin6_scope_id(MemorySegment s) {
        return s.get(JAVA_INT, sin6_scope_id$OFFSET);
    }

    /** @param s a {@code struct sockaddr_in6} @param v the value for {@code s->sin6_scope_id} */
    public static void sin6_scope_id(MemorySegment s, int v) {
        s.set(JAVA_INT, sin6_scope_id$OFFSET, v);
    }

    /**
     * @param s a {@code struct sockaddr_in6}
     * @return {@code ntohs(s->sin6_port)}: the port in host byte order, 0..65535
     */
    public static int sin6_port$hostOrder(MemorySegment s) {
        return Short.toUnsignedInt(s.get(BIG_ENDIAN_SHORT, sin6_port$OFFSET));
    }

    /**
     * Stores {@code s->sin6_port = htons(port)}.
     *
     * @param s    a {@code struct sockaddr_in6}
     * @param port the port in host byte order
     * @throws IllegalArgumentException if {@code port} is not in 0..65535
     */
    public static void sin6_port$hostOrder(MemorySegment s, int port) {
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port out of range 0..65535: " + port);
        }
        s.set(BIG_ENDIAN_SHORT, sin6_port$OFFSET, (short) port);
    }

    private static final ValueLayout.OfShort BIG_ENDIAN_SHORT = JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN);
}
