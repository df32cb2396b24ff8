package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.ds.reclaim.LeaseExpiredException;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A {@link RemoteHashMap} with typed keys and values: each call encodes its key (and value) with a
 * {@link Codec} into scratch segments this handle keeps, runs the byte map's call, and decodes what it
 * returns. The algorithm is the byte map's, after RACE hashing (Zuo, Sun, Yang, Zhang, Hua, "One-sided
 * RDMA-Conscious Extendible Hashing for Disaggregated Memory", USENIX ATC 2021), and so are every
 * method's RDMA operations, round trips, progress and linearization point: encoding and decoding are CPU
 * work only. A key's encoding is 1..{@link #maxKeyBytes()} bytes and a value's 0..{@link #maxValueBytes()};
 * longer ones are refused with a {@link BadArgumentException} naming the length and the limit before any
 * RDMA operation. Encodings must be deterministic: keys are equal when their encodings are.
 *
 * <p>Allocation: the two scratch segments are allocated once per handle; a call allocates only what
 * the codecs do (a decoded value, for instance) and the small slices it hands the byte map.
 *
 * <p>One instance per compute thread, used by its owner, like the byte map it wraps.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class TypedRemoteHashMap<K, V> implements AutoCloseable {
    private final RemoteHashMap map;
    private final Codec<K> keys;
    private final Codec<V> values;
    private final MemorySegment keyScratch;
    private final MemorySegment valueScratch;

    private TypedRemoteHashMap(RemoteHashMap map, Codec<K> keys, Codec<V> values) {
        this.map = map;
        this.keys = keys;
        this.values = values;
        this.keyScratch = MemorySegment.ofArray(new byte[map.maxKeyBytes()]);
        this.valueScratch = MemorySegment.ofArray(new byte[map.maxValueBytes()]);
    }

    /**
     * Types an existing handle (no RDMA). The handle stays usable on its own: both see one map.
     *
     * @param map    a byte map handle
     * @param keys   the key codec
     * @param values the value codec
     * @param <K>    the key type
     * @param <V>    the value type
     * @return the typed handle
     */
    public static <K, V> TypedRemoteHashMap<K, V> of(RemoteHashMap map, Codec<K> keys, Codec<V> values) {
        Objects.requireNonNull(map, "map");
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        return new TypedRemoteHashMap<>(map, keys, values);
    }

    /**
     * Allocates a map: {@link RemoteHashMap#create(ComputeThread, Reclaimer, int, int, int, int)}, typed.
     *
     * @param thread        the creator's compute thread
     * @param reclaimer     the creator's reclaimer (its thread's)
     * @param nodeId        the memory node of the table and the blocks
     * @param buckets       buckets of the table (8 keys each)
     * @param maxKeyBytes   the longest key encoding, 1..{@value RemoteHashMap#MAX_KEY_BYTES}
     * @param maxValueBytes the longest value encoding
     * @param keys          the key codec
     * @param values        the value codec
     * @param <K>           the key type
     * @param <V>           the value type
     * @return the creator's handle
     * @throws BadArgumentException as {@link RemoteHashMap#create(ComputeThread, Reclaimer, int, int, int, int)}
     */
    public static <K, V> TypedRemoteHashMap<K, V> create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int buckets,
                                                         int maxKeyBytes, int maxValueBytes, Codec<K> keys, Codec<V> values) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        return of(RemoteHashMap.create(thread, reclaimer, nodeId, buckets, maxKeyBytes, maxValueBytes), keys, values);
    }

    /**
     * A handle on a map another thread created: {@link RemoteHashMap#attach} (one READ of the root, with the block
     * header and identity word in front of it), typed.
     *
     * @param thread    the caller's compute thread
     * @param reclaimer the caller's reclaimer (its thread's)
     * @param ptr       what {@link #ptr()} (or the byte map's) returned
     * @param keys      the key codec
     * @param values    the value codec
     * @param <K>       the key type
     * @param <V>       the value type
     * @return the handle
     * @throws io.remus.ds.identity.WrongStructureException when the pointer is another kind of structure's root, or
     *                                                       no structure's
     * @throws ClosedMapException                            when the map there was destroyed
     * @throws BadArgumentException                          otherwise as {@link RemoteHashMap#attach}
     */
    public static <K, V> TypedRemoteHashMap<K, V> attach(ComputeThread thread, Reclaimer reclaimer, long ptr, Codec<K> keys,
                                                         Codec<V> values) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        return of(RemoteHashMap.attach(thread, reclaimer, ptr), keys, values);
    }

    /** {@return the byte map this handle types} */
    public RemoteHashMap bytes() {
        return map;
    }

    /** {@return the map's root, to hand to {@link #attach}} */
    public long ptr() {
        return map.ptr();
    }

    /** {@return the longest key encoding the map accepts, in bytes} */
    public int maxKeyBytes() {
        return map.maxKeyBytes();
    }

    /** {@return the longest value encoding the map accepts, in bytes} */
    public int maxValueBytes() {
        return map.maxValueBytes();
    }

    /**
     * The value of {@code key}: {@link RemoteHashMap#get(MemorySegment, MemorySegment)}, 2 round trips
     * expected (1 when absent). Wait-free while the thread's guard holds its lease; linearizes at the READ
     * of the slot it returns, or at a moment of its bucket READs when absent.
     *
     * @param key the key
     * @return the value, or {@code null} when the key is absent
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException  when the handle is closed or the key's encoding is out of range
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out
     */
    public V get(K key) {
        long n = map.get(encodeKey(key), valueScratch);
        return n < 0 ? null : values.decode(valueScratch, n);
    }

    /**
     * Whether {@code key} is present: {@link RemoteHashMap#containsKey(MemorySegment)}, the cost, progress
     * and linearization of {@link #get}.
     *
     * @param key the key
     * @return whether it is present
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException  when the handle is closed or the key's encoding is out of range
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out
     */
    public boolean containsKey(K key) {
        return map.containsKey(encodeKey(key));
    }

    /**
     * Maps {@code key} to {@code value}: {@link RemoteHashMap#put(MemorySegment, MemorySegment)}, 3 round
     * trips expected besides the allocation. Lock-free (obstruction-free between concurrent first inserts
     * of one key); linearizes at the compare-and-swap that publishes the new slot word.
     *
     * @param key   the key
     * @param value the value
     * @return true when the key was absent (inserted), false when its value was replaced
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException  when the handle is closed or an encoding is out of range
     * @throws MapFullException      when the key is absent and every slot of its two combined buckets is taken
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out
     */
    public boolean put(K key, V value) {
        MemorySegment k = encodeKey(key);
        Objects.requireNonNull(value, "value");
        long n = values.encode(value, valueScratch);
        if (n < 0 || n > valueScratch.byteSize()) {
            throw new BadArgumentException("a value encoded in " + n + " bytes; this map's values are 0.."
                    + valueScratch.byteSize() + " bytes");
        }
        return map.put(k, valueScratch.asSlice(0, n));
    }

    /**
     * Removes {@code key}: {@link RemoteHashMap#remove(MemorySegment)}, 3 round trips expected when
     * present, 1 when absent. Lock-free; linearizes at the compare-and-swap that empties the slot.
     *
     * @param key the key
     * @return whether the key was present
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException  when the handle is closed or the key's encoding is out of range
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out
     */
    public boolean remove(K key) {
        return map.remove(encodeKey(key));
    }

    /** Ends this handle's use, and the byte map handle's: {@link RemoteHashMap#close()}. */
    @Override
    public void close() {
        map.close();
    }

    private MemorySegment encodeKey(K key) {
        Objects.requireNonNull(key, "key");
        long n = keys.encode(key, keyScratch);
        if (n < 1 || n > keyScratch.byteSize()) {
            throw new BadArgumentException("a key encoded in " + n + " bytes; this map's keys are 1.."
                    + keyScratch.byteSize() + " bytes");
        }
        return keyScratch.asSlice(0, n);
    }
}
