package io.remus.memcached;

import java.util.function.LongSupplier;

/** Test fixture: one {@link ItemTable} behind the engine interface, in this thread, for the protocol's unit tests. */
final class TableEngine implements MemcachedEngine {
    final ItemTable table;
    private final int maxItemBytes;

    TableEngine(LongSupplier clock, int maxItemBytes) {
        this.table = new ItemTable(clock, maxItemBytes, 0, 1);
        this.maxItemBytes = maxItemBytes;
    }

    @Override
    public int maxItemBytes() {
        return maxItemBytes;
    }

    @Override
    public Item get(byte[] key) {
        return table.get(key);
    }

    @Override
    public StoreResult store(StoreMode mode, byte[] key, int flags, long exptime, byte[] value, long cas) {
        return table.store(mode, key, flags, exptime, value, cas);
    }

    @Override
    public boolean delete(byte[] key) {
        return table.delete(key);
    }

    @Override
    public ArithmeticResult arithmetic(byte[] key, boolean increment, long delta) {
        return table.arithmetic(key, increment, delta);
    }

    @Override
    public boolean touch(byte[] key, long exptime) {
        return table.touch(key, exptime);
    }

    @Override
    public void flushAll(long delay) {
        table.flushAll(delay);
    }

    @Override
    public void close() {
    }
}
