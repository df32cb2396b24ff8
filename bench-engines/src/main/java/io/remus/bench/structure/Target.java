package io.remus.bench.structure;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.core.ComputeThread;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.ds.set.LazyListSet;
import io.remus.ds.set.LockFreeListSet;
import io.remus.ds.set.LockFreeSkipListSet;
import io.remus.ds.set.RemoteSet;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** One worker's handle on the benchmarked structure, with the benchmark's operations. */
abstract sealed class Target implements AutoCloseable {
    /**
     * Creates the structure on node 0.
     *
     * @param c         the configuration
     * @param t         the creator's compute thread
     * @param reclaimer the creator's reclaimer
     * @param locks     the creator's lock options
     * @return its pointer
     */
    static long create(DsBenchmarkConfig c, ComputeThread t, Reclaimer reclaimer, LockOptions locks) {
        switch (c.structure()) {
            case LAZY_LIST -> {
                try (LazyListSet s = LazyListSet.create(new LockContext(t, locks), reclaimer, c.lock(), 0)) {
                    return s.ptr();
                }
            }
            case LOCK_FREE_LIST -> {
                try (LockFreeListSet s = LockFreeListSet.create(t, reclaimer, 0)) {
                    return s.ptr();
                }
            }
            case SKIP_LIST -> {
                try (LockFreeSkipListSet s = LockFreeSkipListSet.create(t, reclaimer, 0)) {
                    return s.ptr();
                }
            }
            default -> {
                try (RemoteHashMap m = RemoteHashMap.create(t, reclaimer, 0, c.mapBuckets(), c.valueBytes())) {
                    return m.ptr();
                }
            }
        }
    }

    /**
     * Attaches a worker's handle.
     *
     * @param c         the configuration
     * @param t         the worker's compute thread
     * @param reclaimer the worker's reclaimer
     * @param locks     the worker's lock options
     * @param ptr       what {@link #create} returned
     * @return the handle
     */
    static Target attach(DsBenchmarkConfig c, ComputeThread t, Reclaimer reclaimer, LockOptions locks, long ptr) {
        return switch (c.structure()) {
            case LAZY_LIST -> new SetTarget(LazyListSet.attach(new LockContext(t, locks), reclaimer, ptr));
            case LOCK_FREE_LIST -> new SetTarget(LockFreeListSet.attach(t, reclaimer, ptr));
            case SKIP_LIST -> new SetTarget(LockFreeSkipListSet.attach(t, reclaimer, ptr));
            case HASH_MAP -> new MapTarget(RemoteHashMap.attach(t, reclaimer, ptr), c.valueBytes());
        };
    }

    /**
     * @param op  the operation
     * @param key its key
     * @return its outcome (see {@link OpType})
     */
    abstract boolean run(OpType op, long key);

    /** {@return the round trips the handle's allocations took so far} */
    abstract long allocatorRoundTrips();

    @Override
    public abstract void close();

    /** Destroys the structure through this handle: its memory is freed once every other handle on it is closed. */
    abstract void destroy();

    /**
     * Destroys the structure at the end of a run, through a handle of its own on {@code t}: the memory is freed once
     * every worker's handle is closed, the creator's having been closed after the create.
     *
     * @param c   the configuration
     * @param t   a compute thread
     * @param ptr what {@link #create} returned
     */
    static void destroy(DsBenchmarkConfig c, ComputeThread t, long ptr) {
        try (NeverReclaimer r = new NeverReclaimer(t)) {
            attach(c, t, r, LockOptions.defaults(), ptr).destroy();
        }
    }

    /** A set: lookup, insert, remove. */
    static final class SetTarget extends Target {
        private final RemoteSet set;

        SetTarget(RemoteSet set) {
            this.set = set;
        }

        @Override
        boolean run(OpType op, long key) {
            return switch (op) {
                case LOOKUP -> set.contains(key);
                case INSERT -> set.insert(key);
                case REMOVE -> set.remove(key);
                case UPDATE, RMW -> throw new IllegalStateException(op + " on a set");
            };
        }

        @Override
        long allocatorRoundTrips() {
            return switch (set) {
                case LazyListSet l -> l.allocatorRoundTrips();
                case LockFreeSkipListSet s -> s.allocatorRoundTrips();
                default -> ((LockFreeListSet) set).allocatorRoundTrips();
            };
        }

        @Override
        public void close() {
            set.close();
        }

        @Override
        void destroy() {
            switch (set) {
                case LazyListSet l -> l.destroy();
                case LockFreeSkipListSet s -> s.destroy();
                default -> ((LockFreeListSet) set).destroy();
            }
        }
    }

    /** The hash map: get, put, remove, and a get-then-put. */
    static final class MapTarget extends Target {
        private final RemoteHashMap map;
        private final MemorySegment value;
        private final MemorySegment into;

        MapTarget(RemoteHashMap map, int valueBytes) {
            this.map = map;
            this.value = MemorySegment.ofArray(new byte[valueBytes]);
            this.into = MemorySegment.ofArray(new byte[Math.max(8, valueBytes)]);
        }

        @Override
        boolean run(OpType op, long key) {
            return switch (op) {
                case LOOKUP -> map.get(key, into) >= 0;
                case INSERT, UPDATE -> put(key, (byte) key);
                case REMOVE -> map.remove(key);
                case RMW -> {
                    boolean found = map.get(key, into) >= 0;
                    put(key, (byte) (found && value.byteSize() > 0 ? into.get(ValueLayout.JAVA_BYTE, 0) + 1 : key));
                    yield found;
                }
            };
        }

        /** Puts the value with its first byte set to {@code first}. */
        private boolean put(long key, byte first) {
            if (value.byteSize() > 0) {
                value.set(ValueLayout.JAVA_BYTE, 0, first);
            }
            return map.put(key, value);
        }

        @Override
        long allocatorRoundTrips() {
            return map.allocatorRoundTrips();
        }

        @Override
        public void close() {
            map.close();
        }

        @Override
        void destroy() {
            map.destroy();
        }
    }
}
