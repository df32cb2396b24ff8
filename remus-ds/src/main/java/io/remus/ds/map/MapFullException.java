package io.remus.ds.map;

import io.remus.core.error.RemusException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A {@link RemoteHashMap} insert found no empty slot in the key's two combined buckets (its 4 buckets): the
 * table has a fixed capacity and does not resize.
 */
public class MapFullException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** The bytes of the key that did not fit. */
    private final byte[] key;

    /**
     * Creates the exception for a {@code long} key, kept as its 8 little-endian bytes.
     *
     * @param key     the {@code long} key that did not fit
     * @param message which buckets were full
     */
    public MapFullException(long key, String message) {
        this(longBytes(key), message);
    }

    /**
     * Creates the exception for a key of bytes.
     *
     * @param key     the bytes of the key that did not fit (kept as given)
     * @param message which buckets were full
     */
    public MapFullException(byte[] key, String message) {
        super(message);
        this.key = key.clone();
    }

    private static byte[] longBytes(long key) {
        byte[] b = new byte[Long.BYTES];
        MemorySegment.ofArray(b).set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, key);
        return b;
    }

    /**
     * {@return the key that did not fit as a {@code long}: its 8 little-endian bytes, as the map encodes
     *         {@code long} keys; for a key of another length, its first up to 8 bytes, zero-extended}
     */
    public long key() {
        byte[] b = new byte[Long.BYTES];
        System.arraycopy(key, 0, b, 0, Math.min(key.length, Long.BYTES));
        return MemorySegment.ofArray(b).get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0);
    }

    /** {@return a copy of the bytes of the key that did not fit} */
    public byte[] keyBytes() {
        return key.clone();
    }
}
