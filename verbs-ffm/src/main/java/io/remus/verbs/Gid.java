package io.remus.verbs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * A 128-bit global identifier ({@code union ibv_gid}), held as two big-endian halves so that
 * {@link #toString()} prints it as an IPv6 address. On RoCEv2 the GID of an IPv4 address is
 * the IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d}.
 *
 * @param high the first 8 bytes, read big-endian (the subnet prefix)
 * @param low  the last 8 bytes, read big-endian (the interface id)
 */
public record Gid(long high, long low) {
    private static final ValueLayout.OfLong BIG_ENDIAN_LONG = JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** The all-zero GID (an unused table entry). */
    public static final Gid ZERO = new Gid(0, 0);

    /**
     * Makes a GID from its bytes.
     *
     * @param raw 16 bytes in network order
     * @return the GID
     * @throws InvalidArgumentException if {@code raw} is not 16 bytes
     */
    public static Gid of(byte[] raw) {
        Objects.requireNonNull(raw, "raw");
        if (raw.length != 16) {
            throw new InvalidArgumentException("a GID has 16 bytes, got " + raw.length);
        }
        MemorySegment s = MemorySegment.ofArray(raw);
        return new Gid(s.get(BIG_ENDIAN_LONG, 0), s.get(BIG_ENDIAN_LONG, 8));
    }

    /**
     * @param s a segment holding a {@code union ibv_gid} at {@code offset}
     * @param offset where it starts
     * @return the GID
     */
    static Gid read(MemorySegment s, long offset) {
        return new Gid(s.get(BIG_ENDIAN_LONG, offset), s.get(BIG_ENDIAN_LONG, offset + 8));
    }

    /**
     * @param s      a segment to hold a {@code union ibv_gid} at {@code offset}
     * @param offset where to write it
     */
    void write(MemorySegment s, long offset) {
        s.set(BIG_ENDIAN_LONG, offset, high);
        s.set(BIG_ENDIAN_LONG, offset + 8, low);
    }

    /** {@return the 16 bytes in network order} */
    public byte[] toBytes() {
        byte[] raw = new byte[16];
        write(MemorySegment.ofArray(raw), 0);
        return raw;
    }

    /** {@return whether every bit is zero} */
    public boolean isZero() {
        return high == 0 && low == 0;
    }

    /** {@return whether this is an IPv4-mapped address ({@code ::ffff:a.b.c.d}), the RoCEv2 GID of an IPv4 address} */
    public boolean isIpv4Mapped() {
        return high == 0 && (low >>> 32) == 0xffffL;
    }

    /**
     * {@return the IPv4 address of an IPv4-mapped GID as a dotted literal ({@code a.b.c.d})}
     * @throws IllegalStateException when this GID is not IPv4-mapped ({@link #isIpv4Mapped()})
     */
    public String ipv4Literal() {
        if (!isIpv4Mapped()) {
            throw new IllegalStateException(this + " is not an IPv4-mapped GID");
        }
        int v4 = (int) low;
        return (v4 >>> 24) + "." + ((v4 >>> 16) & 0xff) + "." + ((v4 >>> 8) & 0xff) + "." + (v4 & 0xff);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            long half = i < 4 ? high : low;
            int group = (int) (half >>> (48 - 16 * (i % 4))) & 0xffff;
            if (i > 0) {
                sb.append(':');
            }
            sb.append(String.format("%04x", group));
        }
        return sb.toString();
    }
}
