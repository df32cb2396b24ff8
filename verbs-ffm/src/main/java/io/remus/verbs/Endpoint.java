package io.remus.verbs;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * What a peer needs to connect a reliable-connected queue pair to this one: exchanged out of
 * band (a socket, a file, rdma_cm private data) or used as is for a loopback connection.
 *
 * @param queuePairNumber the QP number (24 bits)
 * @param packetSequenceNumber the initial packet sequence number (24 bits)
 * @param lid             the port's LID (0 on RoCE)
 * @param gid             the port's GID at the chosen index ({@link Gid#ZERO} where unused, on InfiniBand)
 */
public record Endpoint(int queuePairNumber, int packetSequenceNumber, int lid, Gid gid) {
    /** The length of {@link #toBytes()}. */
    public static final int BYTES = 4 + 4 + 4 + 16;

    /**
     * Checks the numbers against their fields' widths.
     *
     * @throws NullPointerException     if {@code gid} is null
     * @throws InvalidArgumentException if a number does not fit its field
     */
    public Endpoint {
        if ((queuePairNumber & ~0xffffff) != 0 || (packetSequenceNumber & ~0xffffff) != 0) {
            throw new InvalidArgumentException("QP number and PSN are 24-bit: " + queuePairNumber + ", " + packetSequenceNumber);
        }
        if ((lid & ~0xffff) != 0) {
            throw new InvalidArgumentException("a LID is 16-bit: " + lid);
        }
        Objects.requireNonNull(gid, "gid");
    }

    /** {@return a {@value #BYTES}-byte big-endian encoding, for {@link #fromBytes(byte[])}} */
    public byte[] toBytes() {
        return ByteBuffer.allocate(BYTES).putInt(queuePairNumber).putInt(packetSequenceNumber).putInt(lid)
                .put(gid.toBytes()).array();
    }

    /**
     * Decodes an endpoint.
     *
     * @param bytes an encoding from {@link #toBytes()}
     * @return the endpoint
     * @throws InvalidArgumentException if the length is wrong or a field is out of range
     */
    public static Endpoint fromBytes(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length != BYTES) {
            throw new InvalidArgumentException("an endpoint is " + BYTES + " bytes, got " + bytes.length);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int qpn = b.getInt();
        int psn = b.getInt();
        int lid = b.getInt();
        byte[] gid = new byte[16];
        b.get(gid);
        return new Endpoint(qpn, psn, lid, Gid.of(gid));
    }
}
