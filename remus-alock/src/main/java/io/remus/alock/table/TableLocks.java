package io.remus.alock.table;

import io.remus.alock.Lock;
import io.remus.alock.LockContext;

/**
 * One thread's handles on a {@link LockTable}, opened on first use of each lock. Keys that map to
 * the same lock share it: locking two such keys at once is a reentrant lock and is refused. Not
 * thread-safe.
 */
public final class TableLocks {
    private final LockTable table;
    private final LockContext context;
    private final Lock[] handles;

    TableLocks(LockTable table, LockContext context) {
        this.table = table;
        this.context = context;
        this.handles = new Lock[table.size()];
    }

    /**
     * Gives the handle on the lock of a key, opening it on first use.
     *
     * @param key any key
     * @return the handle on its lock
     */
    public Lock lockFor(long key) {
        int i = table.indexOf(key);
        Lock h = handles[i];
        if (h == null) {
            h = table.kind().open(context, table.word(i));
            handles[i] = h;
        }
        return h;
    }

    /**
     * Acquires the lock of {@code key}.
     *
     * @param key any key
     * @see Lock#lock()
     */
    public void lock(long key) {
        lockFor(key).lock();
    }

    /**
     * Releases the lock of {@code key}.
     *
     * @param key a key whose lock this thread holds
     * @see Lock#unlock()
     */
    public void unlock(long key) {
        lockFor(key).unlock();
    }

    /**
     * Tells whether this thread holds the lock of a key.
     *
     * @param key any key
     * @return whether this thread holds its lock
     */
    public boolean isHeld(long key) {
        Lock h = handles[table.indexOf(key)];
        return h != null && h.isHeld();
    }
}
