package io.remus.ds.map;

import io.remus.core.error.BadArgumentException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * How {@link TypedRemoteHashMap} turns keys or values of type {@code T} into the byte strings a
 * {@link RemoteHashMap} stores, and back. An encoding must be deterministic (equal values, equal bytes),
 * since keys are compared byte by byte in remote memory. Implementations are stateless or confined to
 * one thread, like the map handles that use them; both methods run on the CPU only, no RDMA.
 *
 * @param <T> the type encoded
 */
public interface Codec<T> {
    /** {@code long}s as their 8 little-endian bytes: the encoding of {@link RemoteHashMap}'s {@code long} keys. */
    Codec<Long> LONG = new Codec<>() {
        @Override
        public long encode(Long value, MemorySegment target) {
            if (target.byteSize() >= Long.BYTES) {
                target.set(Slot.LONG_LE, 0, value);
            }
            return Long.BYTES;
        }

        @Override
        public Long decode(MemorySegment source, long length) {
            if (length != Long.BYTES) {
                throw new BadArgumentException("a Long is " + Long.BYTES + " bytes, got " + length);
            }
            return source.get(Slot.LONG_LE, 0);
        }
    };

    /** Strings as UTF-8 (an unpaired surrogate becomes {@code '?'}, as {@link String#getBytes} does). */
    Codec<String> UTF8 = new Codec<>() {
        @Override
        public long encode(String value, MemorySegment target) {
            long room = target.byteSize();
            long at = 0;
            for (int i = 0; i < value.length(); i++) {
                int c = value.charAt(i);
                if (Character.isHighSurrogate((char) c) && i + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(i + 1))) {
                    c = Character.toCodePoint((char) c, value.charAt(++i));
                } else if (Character.isSurrogate((char) c)) {
                    c = '?';
                }
                int bytes = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
                if (at + bytes <= room) {
                    if (bytes == 1) {
                        target.set(ValueLayout.JAVA_BYTE, at, (byte) c);
                    } else {
                        int lead = bytes == 2 ? 0xC0 : bytes == 3 ? 0xE0 : 0xF0;
                        target.set(ValueLayout.JAVA_BYTE, at, (byte) (lead | (c >>> (6 * (bytes - 1)))));
                        for (int k = 1; k < bytes; k++) {
                            target.set(ValueLayout.JAVA_BYTE, at + k, (byte) (0x80 | ((c >>> (6 * (bytes - 1 - k))) & 0x3F)));
                        }
                    }
                }
                at += bytes;
            }
            return at;
        }

        @Override
        public String decode(MemorySegment source, long length) {
            return new String(source.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        }
    };

    /** Byte arrays as themselves (a decoded array is a new one). */
    Codec<byte[]> BYTES = new Codec<>() {
        @Override
        public long encode(byte[] value, MemorySegment target) {
            if (target.byteSize() >= value.length) {
                MemorySegment.copy(value, 0, target, ValueLayout.JAVA_BYTE, 0, value.length);
            }
            return value.length;
        }

        @Override
        public byte[] decode(MemorySegment source, long length) {
            return source.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
        }
    };

    /**
     * Writes the encoding of {@code value} at offset 0 of {@code target}.
     *
     * @param value  the value, not null
     * @param target where the bytes go
     * @return the encoding's length in bytes; when it is more than {@code target.byteSize()}, nothing
     *         meaningful was written (the caller reports the length)
     */
    long encode(T value, MemorySegment target);

    /**
     * Reads a value from the first {@code length} bytes of {@code source}.
     *
     * @param source what {@link #encode} wrote
     * @param length its length
     * @return the value
     * @throws BadArgumentException when the bytes are no encoding of a {@code T}
     */
    T decode(MemorySegment source, long length);
}
