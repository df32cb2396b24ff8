package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A deliberately broken twin of {@link RemoteHashMap}, on the same table and slot layout, for the tests
 * that show the checker catches a wrong map: a put of an absent key compare-and-swaps a committed word
 * straight into an empty slot without RACE's re-read for duplicates (so two concurrent first inserts of
 * one key can both succeed, and the second copy shows again after a remove of the first); and, when
 * {@code inPlace}, a put of a present key WRITEs the new value into the old block in place (so a
 * concurrent lookup can read it half written), else it publishes a new block by compare-and-swap. Removed
 * and replaced blocks are never freed.
 */
final class InPlaceHashMap implements MapUnderTest {
    private static final int SLOTS = 2 * RemoteHashMap.SLOTS_PER_BUCKET;
    private static final long BLOCK = 512;

    private final ComputeThread thread;
    private final boolean inPlace;
    private final long table;
    private final int home;
    private final int buckets;
    private final long[] view = new long[SLOTS];
    private long first;
    private long second;

    InPlaceHashMap(ComputeThread thread, long root, boolean inPlace) {
        this.thread = thread;
        this.inPlace = inPlace;
        thread.read(root, 0, RemoteHashMap.ROOT_BYTES);
        this.buckets = (int) thread.buffer().get(ValueLayout.JAVA_LONG, 0);
        this.table = thread.buffer().get(ValueLayout.JAVA_LONG, 16);
        this.home = RemotePtr.node(root);
    }

    private void readBuckets(long key) {
        first = RemotePtr.offset(table, (long) Slot.firstBucket(key, buckets) * RemoteHashMap.BUCKET_BYTES);
        second = RemotePtr.offset(table, (long) Slot.secondBucket(key, buckets) * RemoteHashMap.BUCKET_BYTES);
        thread.batch().read(first, 0, RemoteHashMap.BUCKET_BYTES).read(second, RemoteHashMap.BUCKET_BYTES, RemoteHashMap.BUCKET_BYTES)
                .execute();
        for (int i = 0; i < SLOTS; i++) {
            view[i] = thread.buffer().get(ValueLayout.JAVA_LONG, 8L * i);
        }
    }

    private long slot(int i) {
        return RemotePtr.offset(i < RemoteHashMap.SLOTS_PER_BUCKET ? first : second, 8L * (i % RemoteHashMap.SLOTS_PER_BUCKET));
    }

    /** @return the slot whose block holds the key, its block read into the buffer at BLOCK, or -1 */
    private int find(long key) {
        int fp = Slot.fingerprintOf(key);
        for (int i = 0; i < SLOTS; i++) {
            long w = view[i];
            if (w != 0 && !Slot.isPending(w) && Slot.fingerprint(w) == fp) {
                thread.read(Slot.block(w, home), BLOCK, Slot.blockBytes(w));
                if (thread.buffer().get(ValueLayout.JAVA_LONG, BLOCK) == key) {
                    return i;
                }
            }
        }
        return -1;
    }

    @Override
    public boolean put(long key, byte[] value) {
        MemorySegment buf = thread.buffer();
        while (true) {
            readBuckets(key);
            int s = find(key);
            if (inPlace && s >= 0 && Slot.blockBytes(view[s]) >= RemoteHashMap.BLOCK_HEADER_BYTES + value.length) {
                buf.set(ValueLayout.JAVA_LONG, BLOCK + 8, value.length);
                MemorySegment.copy(MemorySegment.ofArray(value), 0, buf, BLOCK + 16, value.length);
                thread.write(RemotePtr.offset(Slot.block(view[s], home), 8), BLOCK + 8, 8 + value.length);
                return false;
            }
            int units = Slot.unitsFor(RemoteHashMap.BLOCK_HEADER_BYTES + value.length);
            long block = thread.allocator().allocate((long) units * Slot.UNIT, home);
            buf.set(ValueLayout.JAVA_LONG, BLOCK, key);
            buf.set(ValueLayout.JAVA_LONG, BLOCK + 8, value.length);
            MemorySegment.copy(MemorySegment.ofArray(value), 0, buf, BLOCK + 16, value.length);
            thread.write(block, BLOCK, RemoteHashMap.BLOCK_HEADER_BYTES + value.length);
            long word = Slot.committed(Slot.fingerprintOf(key), units, block);
            int target = s;
            long expected = s >= 0 ? view[s] : 0;
            if (s < 0) {
                for (int i = 0; i < SLOTS && target < 0; i++) {
                    if (view[i] == 0) {
                        target = i;
                    }
                }
                if (target < 0) {
                    throw new MapFullException(key, "full");
                }
            }
            if (thread.compareAndSwap(slot(target), expected, word) == expected) {
                return s < 0;
            }
        }
    }

    @Override
    public byte[] get(long key) {
        readBuckets(key);
        if (find(key) < 0) {
            return null;
        }
        int n = (int) thread.buffer().get(ValueLayout.JAVA_LONG, BLOCK + 8);
        byte[] value = new byte[Math.max(0, Math.min(n, 4096))];
        MemorySegment.copy(thread.buffer(), BLOCK + 16, MemorySegment.ofArray(value), 0, value.length);
        return value;
    }

    @Override
    public boolean remove(long key) {
        while (true) {
            readBuckets(key);
            int s = find(key);
            if (s < 0) {
                return false;
            }
            if (thread.compareAndSwap(slot(s), view[s], 0) == view[s]) {
                return true;
            }
        }
    }
}
