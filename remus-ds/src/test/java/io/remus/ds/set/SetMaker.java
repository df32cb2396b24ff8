package io.remus.ds.set;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.ds.reclaim.Reclaimer;

/**
 * One set under test, made the way its class makes it: {@link #create} by one thread, {@link #attach} by
 * each of the others with its own compute thread and reclaimer.
 */
interface SetMaker {
    /** The lock knobs every lazy-list handle of the tests uses. */
    LockOptions LOCKS = LockOptions.defaults();

    /** @return the set's name, for messages */
    String name();

    /**
     * Creates an empty set on {@code home} and closes the creator's handle.
     *
     * @return the root
     */
    long create(ComputeThread t, Reclaimer r, int home);

    /** @return a handle on the set at {@code ptr} */
    RemoteSet attach(ComputeThread t, Reclaimer r, long ptr);

    static SetMaker lockFree() {
        return new SetMaker() {
            @Override
            public String name() {
                return "LockFreeListSet";
            }

            @Override
            public long create(ComputeThread t, Reclaimer r, int home) {
                try (LockFreeListSet s = LockFreeListSet.create(t, r, home)) {
                    return s.ptr();
                }
            }

            @Override
            public RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
                return LockFreeListSet.attach(t, r, ptr);
            }
        };
    }

    /** {@link LockFreeSkipListSet} with its default levels. */
    static SetMaker skipList() {
        return skipList(LockFreeSkipListSet.DEFAULT_MAX_LEVEL);
    }

    /** {@link LockFreeSkipListSet} with {@code maxLevel} levels. */
    static SetMaker skipList(int maxLevel) {
        return new SetMaker() {
            @Override
            public String name() {
                return maxLevel == LockFreeSkipListSet.DEFAULT_MAX_LEVEL ? "LockFreeSkipListSet" : "LockFreeSkipListSet(" + maxLevel + ")";
            }

            @Override
            public long create(ComputeThread t, Reclaimer r, int home) {
                try (LockFreeSkipListSet s = LockFreeSkipListSet.create(t, r, home, maxLevel)) {
                    return s.ptr();
                }
            }

            @Override
            public RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
                return LockFreeSkipListSet.attach(t, r, ptr);
            }
        };
    }

    /** The skip list with one of {@link BrokenSkipListSet}'s flaws. */
    static SetMaker brokenSkipList(BrokenSkipListSet.Flaw flaw) {
        SetMaker real = skipList();
        return new SetMaker() {
            @Override
            public String name() {
                return "BrokenSkipListSet(" + flaw + ")";
            }

            @Override
            public long create(ComputeThread t, Reclaimer r, int home) {
                return real.create(t, r, home);
            }

            @Override
            public RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
                return new BrokenSkipListSet(t, r, ptr, flaw);
            }
        };
    }

    static SetMaker lazy(LockKind kind) {
        return new SetMaker() {
            @Override
            public String name() {
                return "LazyListSet(" + kind.cliName() + ")";
            }

            @Override
            public long create(ComputeThread t, Reclaimer r, int home) {
                try (LazyListSet s = LazyListSet.create(new LockContext(t, LOCKS), r, kind, home)) {
                    return s.ptr();
                }
            }

            @Override
            public RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
                return LazyListSet.attach(new LockContext(t, LOCKS), r, ptr);
            }
        };
    }

    /** The lazy list without validation ({@link UnvalidatedLazyListSet}), on a lazy list of {@code kind}. */
    static SetMaker unvalidatedLazy(LockKind kind) {
        SetMaker real = lazy(kind);
        return new SetMaker() {
            @Override
            public String name() {
                return "UnvalidatedLazyListSet(" + kind.cliName() + ")";
            }

            @Override
            public long create(ComputeThread t, Reclaimer r, int home) {
                return real.create(t, r, home);
            }

            @Override
            public RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
                return new UnvalidatedLazyListSet(new LockContext(t, LOCKS), r, ptr);
            }
        };
    }

    /** The Harris list that unlinks without marking ({@link UnmarkedUnlinkListSet}). */
    static SetMaker unmarkedUnlink() {
        SetMaker real = lockFree();
        return new SetMaker() {
            @Override
            public String name() {
                return "UnmarkedUnlinkListSet";
            }

            @Override
            public long create(ComputeThread t, Reclaimer r, int home) {
                return real.create(t, r, home);
            }

            @Override
            public RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
                return new UnmarkedUnlinkListSet(t, r, ptr);
            }
        };
    }
}
