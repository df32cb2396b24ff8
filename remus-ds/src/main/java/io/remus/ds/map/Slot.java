package io.remus.ds.map;

import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The 8-byte slot word of {@link RemoteHashMap} and the hashing that picks a key's two combined buckets
 * and its fingerprint from the key's digest ({@link #digest}). Package-private layout descriptor.
 *
 * <pre>
 *  63       56 55          46 45                                        1   0
 * +-----------+--------------+--------------------------------------------+---+
 * | fp (8)    | units (10)   | block address bits 47..3 (45)              | P |
 * +-----------+--------------+--------------------------------------------+---+
 *  0 = empty.  P = 1: pending (an insert not yet committed, invisible to lookups).
 *  units: the block's length in 64-byte units, 1..1023 (what a lookup reads).
 * </pre>
 *
 * <p>A {@link RemotePtr} takes all 64 bits (16 of node id, 48 of address), so a slot cannot hold a
 * whole pointer beside a fingerprint and a length. The map keeps every key-value block on its table's
 * home node, so the node id is implied; blocks are 8-byte aligned ({@link io.remus.core.memory.SizeClasses}),
 * so the address's 3 low bits are implied too: 45 bits hold any 48-bit address, which leaves 19 bits for
 * an 8-bit fingerprint (as in RACE), a 10-bit length and the pending bit.
 */
final class Slot {
    /** Bytes of one length unit. */
    static final int UNIT = 64;
    /** Most units a slot can describe. */
    static final int MAX_UNITS = 1023;
    static final long PENDING = 1L;
    /** A key word as keys are encoded: little-endian, whatever the platform. */
    static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int ADDRESS_FIELD_BITS = 45;
    private static final long ADDRESS_FIELD_MASK = (1L << ADDRESS_FIELD_BITS) - 1;
    private static final int UNITS_SHIFT = 46;
    private static final int FP_SHIFT = 56;
    private static final long SEED_FIRST = 0x9E3779B97F4A7C15L;
    private static final long SEED_SECOND = 0xC2B2AE3D27D4EB4FL;

    private Slot() {
    }

    /**
     * @param fingerprint the key's fingerprint, 0..255
     * @param units       the block's length in units, 1..{@value #MAX_UNITS}
     * @param block       the block pointer (on the home node, 8-byte aligned)
     * @return the committed slot word
     */
    static long committed(int fingerprint, int units, long block) {
        long address = RemotePtr.address(block);
        return ((long) fingerprint << FP_SHIFT) | ((long) units << UNITS_SHIFT) | ((address >>> 3) << 1);
    }

    static boolean isPending(long word) {
        return (word & PENDING) != 0;
    }

    static int fingerprint(long word) {
        return (int) (word >>> FP_SHIFT);
    }

    static int units(long word) {
        return (int) ((word >>> UNITS_SHIFT) & MAX_UNITS);
    }

    /** {@return the block's bytes as a lookup reads them} */
    static int blockBytes(long word) {
        return units(word) * UNIT;
    }

    /**
     * @param word a non-empty slot word
     * @param home the table's home node
     * @return the block it points to
     */
    static long block(long word, int home) {
        return RemotePtr.of(home, ((word >>> 1) & ADDRESS_FIELD_MASK) << 3);
    }

    /** {@return the units a block of {@code bytes} bytes takes} */
    static int unitsFor(long bytes) {
        return (int) ((bytes + UNIT - 1) / UNIT);
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * The 64-bit digest that the buckets and the fingerprint of a key are computed from: an 8-byte key's
     * digest is the key's 8 bytes read as a little-endian {@code long} (so a {@code long} key hashes as it
     * always did), any other length's a mix of its bytes, zero-padded to whole words, and its length.
     *
     * @param key    the key's bytes from offset 0, zero after {@code length} up to the next multiple of 8
     * @param length the key's length, at least 1
     * @return the digest
     */
    static long digest(MemorySegment key, int length) {
        if (length == 8) {
            return key.get(LONG_LE, 0);
        }
        long h = mix(SEED_SECOND ^ length);
        for (int at = 0; at < length; at += 8) {
            h = mix(h ^ key.get(LONG_LE, at)) + SEED_FIRST;
        }
        return h;
    }

    /** {@return the fingerprint, 0..255, of a key with digest {@code key}} */
    static int fingerprintOf(long key) {
        return (int) (mix(key ^ SEED_FIRST) >>> FP_SHIFT);
    }

    /**
     * Buckets in a combined bucket of a table of {@code buckets} buckets: 2 (a bucket and its right
     * neighbour, READ as one), or 1 in a table of fewer than 4 buckets, whose halves hold one bucket.
     *
     * @param buckets the table's buckets, at least 2
     * @return 1 or 2
     */
    static int width(int buckets) {
        return buckets < 4 ? 1 : 2;
    }

    /**
     * {@return the first bucket of the first combined bucket of a key with digest {@code key}: in the
     *         table's left half, 0..buckets/2 - {@link #width}, so that the whole combined bucket is there}
     */
    static int firstBucket(long key, int buckets) {
        int half = buckets / 2;
        return (int) Long.remainderUnsigned(mix(key ^ SEED_FIRST), half - width(buckets) + 1);
    }

    /**
     * {@return the first bucket of the key's second combined bucket: in the table's right half,
     *         buckets/2..buckets - {@link #width}, so the key's two combined buckets never share a bucket}
     */
    static int secondBucket(long key, int buckets) {
        int half = buckets / 2;
        return half + (int) Long.remainderUnsigned(mix(key + SEED_SECOND), buckets - half - width(buckets) + 1);
    }
}
