package io.remus.memcached;

/**
 * Where a {@link MemcachedServer} keeps its items: one handle per server thread, which only that thread
 * calls. Every operation is atomic with respect to every other operation on the same key, from any handle of
 * the same store, on any node. Expiration times are memcached's: 0 never, up to 30 days (2,592,000 seconds)
 * relative, above that an absolute unix time, negative already expired; the engine applies them with its own
 * clock and drops expired items lazily, when a command finds them.
 *
 * <p>Implemented by {@link DelegatedCache#openEngine}. Keys are 1..{@value #MAX_KEY_BYTES} bytes; the server checks
 * them and the value sizes ({@link #maxItemBytes()}) before it calls.
 */
public interface MemcachedEngine extends AutoCloseable {
    /** The longest key memcached accepts, in bytes. */
    int MAX_KEY_BYTES = 250;

    /** {@return the largest value this engine stores, in bytes} */
    int maxItemBytes();

    /**
     * Looks up one key.
     *
     * @param key the key
     * @return the item, or null when the key holds none (or only an expired one)
     */
    Item get(byte[] key);

    /**
     * Runs one storage command.
     *
     * @param mode    which command
     * @param key     the key
     * @param flags   the client's flags (ignored by append and prepend)
     * @param exptime memcached's expiration time (ignored by append and prepend)
     * @param value   the data, at most {@link #maxItemBytes()} bytes (with append and prepend, the joined data too)
     * @param cas     for {@link StoreMode#CAS}, the unique value the client fetched; ignored otherwise
     * @return the outcome; a joined value over the limit is {@link StoreResult#NOT_STORED}
     */
    StoreResult store(StoreMode mode, byte[] key, int flags, long exptime, byte[] value, long cas);

    /**
     * Deletes one key.
     *
     * @param key the key
     * @return whether it held an item
     */
    boolean delete(byte[] key);

    /**
     * Adds {@code delta} to a numeric item ({@code incr}, wrapping at 2<sup>64</sup>) or subtracts it
     * ({@code decr}, stopping at 0).
     *
     * @param key       the key
     * @param increment true for incr, false for decr
     * @param delta     the unsigned 64-bit amount
     * @return the outcome
     */
    ArithmeticResult arithmetic(byte[] key, boolean increment, long delta);

    /**
     * Sets a new expiration time on an item.
     *
     * @param key     the key
     * @param exptime memcached's expiration time
     * @return whether the key held an item
     */
    boolean touch(byte[] key, long exptime);

    /**
     * Invalidates every item: now for a delay of 0 or less, else when the delay (memcached's expiration time)
     * has passed; items stored after the call are not affected.
     *
     * @param delay memcached's expiration time for the flush
     */
    void flushAll(long delay);

    /** Releases this handle; the items stay in the store. */
    @Override
    void close();
}
