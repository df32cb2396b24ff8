package io.remus.verbs;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A registered region as a peer addresses it: its address, remote key and length. Exchanged at
 * connection time ({@link CmConnection#peerRegion()}) or out of band.
 *
 * @param address   the region's first byte's virtual address
 * @param remoteKey its rkey
 * @param length    its length in bytes
 */
public record RemoteRegion(long address, int remoteKey, long length) {
    /** The length of {@link #toBytes()}. */
    public static final int BYTES = 8 + 4 + 8;

    /**
     * Checks the length and the end.
     *
     * @throws InvalidArgumentException if the length is negative, or the region runs past the end of
     *                                  the 64-bit address space (wraps around it)
     */
    public RemoteRegion {
        if (length < 0) {
            throw new InvalidArgumentException("a region's length cannot be negative: " + length);
        }
        if (length > 0 && Long.compareUnsigned(address + length - 1, address) < 0) {
            throw new InvalidArgumentException("a region of " + length + " bytes at 0x" + Long.toHexString(address)
                    + " wraps around the address space");
        }
    }

    /**
     * Computes the address of a byte in the region.
     *
     * @param offset an offset into the region
     * @return the address of that byte
     * @throws InvalidArgumentException if the offset lies outside the region
     */
    public long addressAt(long offset) {
        if (offset < 0 || offset >= length) {
            throw new InvalidArgumentException("offset " + offset + " is outside the remote region of " + length + " bytes");
        }
        return address + offset;
    }

    /** {@return a {@value #BYTES}-byte big-endian encoding, for {@link #fromBytes(byte[])}} */
    public byte[] toBytes() {
        return ByteBuffer.allocate(BYTES).putLong(address).putInt(remoteKey).putLong(length).array();
    }

    /**
     * Decodes a region.
     *
     * @param bytes at least {@value #BYTES} bytes, starting with an encoding from {@link #toBytes()}
     *              (connection private data may be padded)
     * @return the region
     * @throws InvalidArgumentException if there are too few bytes
     */
    public static RemoteRegion fromBytes(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length < BYTES) {
            throw new InvalidArgumentException("a remote region is " + BYTES + " bytes, got " + bytes.length);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return new RemoteRegion(b.getLong(), b.getInt(), b.getLong());
    }
}
