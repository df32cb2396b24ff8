package io.remus.bench.object;

import io.remus.alock.kind.LockKind;
import io.remus.bench.engines.FlagNames;
import io.remus.core.error.BadArgumentException;

/** How {@link ObjectBenchmark} implements an object: wait-free, or a {@link io.remus.ds.object.LockedObject} under a lock. */
public enum ImplKind {
    /** The wait-free object of {@code io.remus.ds.object} (see {@link ObjectKind}). */
    WAITFREE("waitfree", null),
    /** A {@link io.remus.ds.object.LockedObject} under ALock. */
    ALOCK("alock", LockKind.ALOCK),
    /** A {@link io.remus.ds.object.LockedObject} under the RDMA spin lock. */
    SPIN("spin", LockKind.SPIN);

    private final String flagName;
    private final LockKind lock;

    ImplKind(String flagName, LockKind lock) {
        this.flagName = flagName;
        this.lock = lock;
    }

    /** {@return the name as the tool's flag spells it} */
    public String flagName() {
        return flagName;
    }

    /** {@return the lock of a locked implementation, null for {@link #WAITFREE}} */
    public LockKind lock() {
        return lock;
    }

    /**
     * @param name a {@link #flagName()}, any case
     * @return its kind
     * @throws BadArgumentException naming the value and the accepted ones
     */
    public static ImplKind parse(String name) {
        return FlagNames.parse(values(), ImplKind::flagName, "implementation", name);
    }
}
