package io.remus.ds.map;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A deliberately broken twin of {@link RemoteHashMap}'s byte-key methods, for the test that shows the
 * history check catches a map that compares keys by their first 8 bytes only: every key is cut to its
 * first 8 bytes (zero-padded) and used as the {@code long} key of a real map, so keys that share those 8
 * bytes (a long common prefix, or one a prefix of another) land on one entry. The spec's key {@code i} is
 * byte key {@code i}, as in {@link RemoteHashMapHistoriesTest#withByteKeys}.
 */
final class PrefixKeyHashMap implements MapUnderTest {
    private final RemoteHashMap map;
    private final long[] cut;

    PrefixKeyHashMap(RemoteHashMap map, byte[][] keys) {
        this.map = map;
        this.cut = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            byte[] eight = new byte[8];
            System.arraycopy(keys[i], 0, eight, 0, Math.min(8, keys[i].length));
            cut[i] = MemorySegment.ofArray(eight).get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0);
        }
    }

    @Override
    public boolean put(long key, byte[] value) {
        return map.put(cut[(int) key], value);
    }

    @Override
    public byte[] get(long key) {
        return map.get(cut[(int) key]);
    }

    @Override
    public boolean remove(long key) {
        return map.remove(cut[(int) key]);
    }
}
