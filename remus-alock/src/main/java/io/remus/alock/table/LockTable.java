package io.remus.alock.table;

import io.remus.alock.LockContext;
import io.remus.alock.LockWord;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.config.NodeRange;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.RemotePtr;

import java.util.Objects;

/**
 * {@code size} locks of one kind spread over the memory nodes: lock {@code i} lives on memory node
 * {@code first + i % count}, and key {@code k} maps to lock {@code floorMod(k, size)}. The table
 * itself is immutable and may be shared by the threads of a JVM; each thread acquires through its
 * own {@link TableLocks}.
 */
public final class LockTable {
    private final LockKind kind;
    private final long[] words;

    private LockTable(LockKind kind, long[] words) {
        this.kind = kind;
        this.words = words;
    }

    /**
     * Allocates and zeroes the table's lock words from {@code creator}.
     *
     * @param creator any compute thread of the cluster
     * @param kind    the lock kind
     * @param size    how many locks, at least 1
     * @return the table
     */
    public static LockTable create(ComputeThread creator, LockKind kind, int size) {
        Objects.requireNonNull(creator, "creator");
        Objects.requireNonNull(kind, "kind");
        if (size < 1) {
            throw new BadArgumentException("a lock table needs at least one lock, got " + size);
        }
        NodeRange memoryNodes = creator.config().memoryNodes();
        RemoteAllocator allocator = creator.allocator();
        long[] words = new long[size];
        for (int i = 0; i < size; i++) {
            words[i] = LockWord.allocate(creator, allocator, memoryNodes.first() + i % memoryNodes.size());
        }
        return new LockTable(kind, words);
    }

    /**
     * A table over lock words made elsewhere (for example read from another process's directory).
     *
     * @param kind  their kind
     * @param words zeroed or in-use lock words of that kind
     * @return the table
     */
    public static LockTable of(LockKind kind, long[] words) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(words, "words");
        if (words.length == 0) {
            throw new BadArgumentException("a lock table needs at least one lock");
        }
        for (long w : words) {
            LockWord.checkAligned(w);
        }
        return new LockTable(kind, words.clone());
    }

    /** {@return the lock kind} */
    public LockKind kind() {
        return kind;
    }

    /** {@return how many locks} */
    public int size() {
        return words.length;
    }

    /**
     * Maps a key to its lock.
     *
     * @param key any key
     * @return the index of its lock
     */
    public int indexOf(long key) {
        return (int) Math.floorMod(key, (long) words.length);
    }

    /**
     * Looks up the word of a lock.
     *
     * @param index a lock index below {@link #size()}
     * @return its lock word
     */
    public long word(int index) {
        if (index < 0 || index >= words.length) {
            throw new BadArgumentException("lock index " + index + " is outside 0.." + (words.length - 1));
        }
        return words[index];
    }

    /**
     * Looks up the home node of a lock.
     *
     * @param index a lock index below {@link #size()}
     * @return the node its lock lives on
     */
    public int homeNode(int index) {
        return RemotePtr.node(word(index));
    }

    /**
     * Opens the calling thread's handles on this table.
     *
     * @param context the calling thread's lock context
     * @return the thread's handles on this table
     */
    public TableLocks open(LockContext context) {
        Objects.requireNonNull(context, "context");
        return new TableLocks(this, context);
    }
}
