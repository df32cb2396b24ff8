package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct sockaddr_in {
 *     sa_family_t    sin_family;
 *     in_port_t      sin_port;      // network byte order
 *     struct in_addr sin_addr;      // network byte order
 *     unsigned char  sin_zero[8];
 * }
 * }
 *
 * <p>{@link #sin_port(MemorySegment)} reads the raw {@code in_port_t} as C stores it (network
 * byte order); {@link #sin_port$hostOrder(MemorySegment)} and
 * {@link #sin_port$hostOrder(MemorySegment, int)} convert to and from a host-order port.
 */
@SuppressWarnings("checkstyle:TypeName")
public final class sockaddr_in {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_SHORT.withName("sin_family"),
            JAVA_SHORT.withName("sin_port"),
            in_addr.layout().withName("sin_addr"),
            MemoryLayout.sequenceLayout(8, JAVA_BYTE).withName("sin_zero")
    ).withName("sockaddr_in");

    private sockaddr_in() {
    }

    /** {@return the layout of {@code struct sockaddr_in}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct sockaddr_in)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code sin_family}. */
    public static final long sin_family$OFFSET = 0;
    /** Offset of {@code sin_port}. */
    public static final long sin_port$OFFSET = 2;
    /** Offset of {@code sin_addr}. */
    public static final long sin_addr$OFFSET = 4;
    /** Offset of {@code sin_zero}. */
    public static final long sin_zero$OFFSET = 8;

    /** @param s a {@code struct sockaddr_in} @return {@code s->sin_family} */
    public static short sin_family(MemorySegment s) {
        return s.get(JAVA_SHORT, sin_family$OFFSET);
    }

    /** @param s a {@code struct sockaddr_in} @param v the value for {@code s->sin_family} */
    public static void sin_family(MemorySegment s, short v) {
        s.set(JAVA_SHORT, sin_family$OFFSET, v);
    }

    /** @param s a {@code struct sockaddr_in} @return {@code s->sin_port} */
    public static short sin_port(MemorySegment s) {
        return s.get(JAVA_SHORT, sin_port$OFFSET);
    }

    /** @param s a {@code struct sockaddr_in} @param v the value for {@code s->sin_port} */
    public static void sin_port(MemorySegment s, short v) {
        s.set(JAVA_SHORT, sin_port$OFFSET, v);
    }

    /** @param s a {@code struct sockaddr_in} @return a slice over {@code s->sin_addr} (4 bytes) */
    public static MemorySegment sin_addr(MemorySegment s) {
        return s.asSlice(sin_addr$OFFSET, 4);
    }

    /** @param s a {@code struct sockaddr_in} @param v copied into {@code s->sin_addr} (4 bytes) */
    public static void sin_addr(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, sin_addr$OFFSET, 4);
    }

    /** @param s a {@code struct sockaddr_in} @return a slice over {@code s->sin_zero} (8 bytes) */
    public static MemorySegment sin_zero(MemorySegment s) {
        return s.asSlice(sin_zero$OFFSET, 8);
    }

    /** @param s a {@code struct sockaddr_in} @param v copied into {@code s->sin_zero} (8 bytes) */
    public static void sin_zero(MemorySegment s, MemorySegment v) {
        MemorySegment.copy(v, 0, s, sin_zero$OFFSET, 8);
    }

    /**
     * @param s a {@code struct sockaddr_in}
     * @return {@code ntohs(s->sin_port)}: the port in host byte order, 0..65535
     */
    public static int sin_port$hostOrder(MemorySegment s) {
        return Short.toUnsignedInt(s.get(BIG_ENDIAN_SHORT, sin_port$OFFSET));
    }

    /**
     * Stores {@code s->sin_port = htons(port)}.
     *
     * @param s    a {@code struct sockaddr_in}
     * @param port the port in host byte order
     * @throws IllegalArgumentException if {@code port} is not in 0..65535
     */
    public static void sin_port$hostOrder(MemorySegment s, int port) {
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port out of range 0..65535: " + port);
        }
        s.set(BIG_ENDIAN_SHORT, sin_port$OFFSET, (short) port);
    }

    private static final ValueLayout.OfShort BIG_ENDIAN_SHORT = JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN);
}
