package io.remus.memcached;

import io.remus.core.error.BadArgumentException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The items of one shard with memcached's semantics: flags, expiration (relative up to 30 days, absolute
 * after, negative already expired; dropped lazily when a command finds an expired item), CAS unique values
 * and the storage, arithmetic, touch and flush commands. Not thread-safe: one thread calls it (the shard's
 * trustee, in {@link DelegatedCache}), and each call is then atomic. Every call is O(1) expected, except
 * {@link #flushAll(long)}, which visits every item.
 *
 * <p>CAS unique values of shard {@code s} of {@code n} are {@code k * n + s + 1} for k = 1, 2, ...: unique across
 * the shards of one store and never 0.
 */
public final class ItemTable {
    /** The largest relative expiration time; larger values are absolute unix times (memcached's REALTIME_MAXDELTA). */
    public static final long MAX_RELATIVE_SECONDS = 60L * 60 * 24 * 30;
    /** An expiration that never comes. */
    private static final long NEVER = 0;

    private final LongSupplier clock;
    private final int maxItemBytes;
    private final int shard;
    private final int shards;
    private final Map<Key, Entry> items = new HashMap<>();
    private long casCounter;

    /**
     * A table.
     *
     * @param clock        the current unix time in seconds
     * @param maxItemBytes the largest value stored (append and prepend beyond it are NOT_STORED), positive
     * @param shard        this table's shard, 0..{@code shards - 1}
     * @param shards       the shards of the store, positive
     * @throws BadArgumentException naming the value, for a size or shard out of range
     */
    public ItemTable(LongSupplier clock, int maxItemBytes, int shard, int shards) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (maxItemBytes <= 0) {
            throw new BadArgumentException("maxItemBytes must be positive, got " + maxItemBytes);
        }
        if (shards <= 0 || shard < 0 || shard >= shards) {
            throw new BadArgumentException("shard must be in 0.." + (shards - 1) + ", got " + shard + " of " + shards);
        }
        this.maxItemBytes = maxItemBytes;
        this.shard = shard;
        this.shards = shards;
    }

    /** {@return how many items the table holds, expired ones not yet dropped included} */
    public int size() {
        return items.size();
    }

    /**
     * Looks up one key.
     *
     * @param key the key
     * @return the item (its value is the table's array: do not change it), or null
     */
    public Item get(byte[] key) {
        Entry e = live(key);
        return e == null ? null : new Item(e.value, e.flags, e.cas);
    }

    /**
     * Runs one storage command, as {@link MemcachedEngine#store} describes.
     *
     * @param mode    the command
     * @param key     the key
     * @param flags   the flags
     * @param exptime memcached's expiration time
     * @param value   the data
     * @param cas     the unique value of a cas
     * @return the outcome
     */
    public StoreResult store(StoreMode mode, byte[] key, int flags, long exptime, byte[] value, long cas) {
        Entry e = live(key);
        switch (mode) {
            case ADD -> {
                if (e != null) {
                    return StoreResult.NOT_STORED;
                }
            }
            case REPLACE -> {
                if (e == null) {
                    return StoreResult.NOT_STORED;
                }
            }
            case CAS -> {
                if (e == null) {
                    return StoreResult.NOT_FOUND;
                }
                if (e.cas != cas) {
                    return StoreResult.EXISTS;
                }
            }
            case APPEND, PREPEND -> {
                if (e == null) {
                    return StoreResult.NOT_STORED;
                }
                if ((long) e.value.length + value.length > maxItemBytes) {
                    return StoreResult.NOT_STORED;
                }
                byte[] joined = new byte[e.value.length + value.length];
                byte[] first = mode == StoreMode.APPEND ? e.value : value;
                byte[] second = mode == StoreMode.APPEND ? value : e.value;
                System.arraycopy(first, 0, joined, 0, first.length);
                System.arraycopy(second, 0, joined, first.length, second.length);
                e.value = joined;
                e.cas = nextCas();
                return StoreResult.STORED;
            }
            default -> {
            }
        }
        long expiresAt = expiresAt(exptime);
        if (expiresAt < 0) {
            items.remove(new Key(key));
            return StoreResult.STORED;
        }
        items.put(new Key(key.clone()), new Entry(value.clone(), flags, expiresAt, nextCas()));
        return StoreResult.STORED;
    }

    /**
     * Deletes one key.
     *
     * @param key the key
     * @return whether it held a live item
     */
    public boolean delete(byte[] key) {
        return live(key) != null && items.remove(new Key(key)) != null;
    }

    /**
     * Runs incr or decr, as {@link MemcachedEngine#arithmetic} describes; the item keeps its flags and
     * expiration and gets a new CAS unique value.
     *
     * @param key       the key
     * @param increment incr or decr
     * @param delta     the unsigned amount
     * @return the outcome
     */
    public ArithmeticResult arithmetic(byte[] key, boolean increment, long delta) {
        Entry e = live(key);
        if (e == null) {
            return new ArithmeticResult(ArithmeticResult.Status.NOT_FOUND, 0);
        }
        long current;
        try {
            current = parseUnsigned(e.value);
        } catch (NumberFormatException notANumber) {
            return new ArithmeticResult(ArithmeticResult.Status.NON_NUMERIC, 0);
        }
        long next;
        if (increment) {
            next = current + delta;
        } else {
            next = Long.compareUnsigned(delta, current) > 0 ? 0 : current - delta;
        }
        e.value = Long.toUnsignedString(next).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        e.cas = nextCas();
        return new ArithmeticResult(ArithmeticResult.Status.OK, next);
    }

    /**
     * Sets a new expiration time; a negative one drops the item.
     *
     * @param key     the key
     * @param exptime memcached's expiration time
     * @return whether the key held a live item
     */
    public boolean touch(byte[] key, long exptime) {
        Entry e = live(key);
        if (e == null) {
            return false;
        }
        long expiresAt = expiresAt(exptime);
        if (expiresAt < 0) {
            items.remove(new Key(key));
        } else {
            e.expiresAt = expiresAt;
        }
        return true;
    }

    /**
     * Invalidates every item now ({@code delay <= 0}) or when {@code delay} (memcached's expiration time)
     * comes, whichever is earlier for an item that expires sooner anyway.
     *
     * @param delay the flush's expiration time
     */
    public void flushAll(long delay) {
        long at = delay <= 0 ? -1 : expiresAt(delay);
        if (at < 0) {
            items.clear();
            return;
        }
        for (Iterator<Entry> it = items.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.expiresAt == NEVER || e.expiresAt > at) {
                e.expiresAt = at;
            }
        }
    }

    /**
     * Memcached's expiration time as an absolute unix time: {@value #NEVER} for never, -1 for already expired.
     */
    private long expiresAt(long exptime) {
        if (exptime == 0) {
            return NEVER;
        }
        if (exptime < 0) {
            return -1;
        }
        long now = clock.getAsLong();
        long at = exptime <= MAX_RELATIVE_SECONDS ? now + exptime : exptime;
        return at <= now ? -1 : at;
    }

    /** The key's item, or null; drops it when it expired. */
    private Entry live(byte[] key) {
        Key k = new Key(key);
        Entry e = items.get(k);
        if (e != null && e.expiresAt != NEVER && e.expiresAt <= clock.getAsLong()) {
            items.remove(k);
            return null;
        }
        return e;
    }

    /**
     * Writes the whole table (the CAS counter, then each item's key, flags, expiry, CAS value and data) for
     * {@link #readFrom}: O(items), CPU only.
     */
    void writeTo(DataOutputStream out) throws IOException {
        out.writeLong(casCounter);
        out.writeInt(items.size());
        for (Map.Entry<Key, Entry> e : items.entrySet()) {
            byte[] key = e.getKey().bytes();
            Entry v = e.getValue();
            out.writeShort(key.length);
            out.write(key);
            out.writeInt(v.flags);
            out.writeLong(v.expiresAt);
            out.writeLong(v.cas);
            out.writeInt(v.value.length);
            out.write(v.value);
        }
    }

    /**
     * Replaces the whole table with one {@link #writeTo} wrote.
     *
     * @throws IOException when the bytes end early
     * @throws BadArgumentException naming the value, for a negative count or length
     */
    void readFrom(DataInputStream in) throws IOException {
        long counter = in.readLong();
        int count = in.readInt();
        if (count < 0) {
            throw new BadArgumentException("item table image of " + count + " items");
        }
        Map<Key, Entry> read = new HashMap<>();
        for (int i = 0; i < count; i++) {
            byte[] key = new byte[in.readUnsignedShort()];
            in.readFully(key);
            int flags = in.readInt();
            long expiresAt = in.readLong();
            long cas = in.readLong();
            int length = in.readInt();
            if (length < 0) {
                throw new BadArgumentException("item table image with a value of " + length + " bytes");
            }
            byte[] value = new byte[length];
            in.readFully(value);
            read.put(new Key(key), new Entry(value, flags, expiresAt, cas));
        }
        items.clear();
        items.putAll(read);
        casCounter = counter;
    }

    private long nextCas() {
        casCounter++;
        return casCounter * shards + shard + 1;
    }

    /** A decimal unsigned 64-bit number, optionally followed by spaces (memcached pads shrunken numbers so). */
    static long parseUnsigned(byte[] value) {
        int end = value.length;
        while (end > 0 && value[end - 1] == ' ') {
            end--;
        }
        if (end == 0 || end > 20) {
            throw new NumberFormatException("not a number");
        }
        for (int i = 0; i < end; i++) {
            if (value[i] < '0' || value[i] > '9') {
                throw new NumberFormatException("not a number");
            }
        }
        return Long.parseUnsignedLong(new String(value, 0, end, java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** A key compared by content. */
    private record Key(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    /** One item's state. */
    private static final class Entry {
        byte[] value;
        final int flags;
        long expiresAt;
        long cas;

        Entry(byte[] value, int flags, long expiresAt, long cas) {
            this.value = value;
            this.flags = flags;
            this.expiresAt = expiresAt;
            this.cas = cas;
        }
    }
}
