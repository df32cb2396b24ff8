package io.remus.bench.object;

import io.remus.alock.kind.LockKind;
import io.remus.bench.engines.FlagNames;
import io.remus.core.error.BadArgumentException;

/**
 * How {@link SharingExperiment} implements a shared counter: the ways Gossamer's counter microbenchmark
 * compares (Trust&lt;T&gt; / Gossamer, UIC 2025), each on its own counters.
 */
public enum SharingWay {
    /** {@link io.remus.ds.object.RemoteCounter}: one RDMA fetch-and-add on the counter word. */
    FAA("faa", null),
    /** A {@link io.remus.ds.object.LockedObject} counter under ALock, one lock per counter. */
    ALOCK("alock", LockKind.ALOCK),
    /** A {@link io.remus.ds.object.LockedObject} counter under the RDMA spin lock. */
    SPIN("spin", LockKind.SPIN),
    /** A {@link io.remus.ds.object.LockedObject} counter under the RDMA MCS lock. */
    MCS("mcs", LockKind.MCS),
    /** The counter owned by the trustee of its home node ({@link io.remus.ds.delegate.Trustee}). */
    DELEGATED("delegated", null),
    /** The counter as a {@link io.remus.ds.object.WaitFreeObject} (the universal construction). */
    WAITFREE("waitfree", null);

    private final String flagName;
    private final LockKind lock;

    SharingWay(String flagName, LockKind lock) {
        this.flagName = flagName;
        this.lock = lock;
    }

    /** {@return the name as the tool's flag spells it} */
    public String flagName() {
        return flagName;
    }

    /** {@return the lock of a locked way, null for the others} */
    public LockKind lock() {
        return lock;
    }

    /**
     * @param name a {@link #flagName()}, any case
     * @return its way
     * @throws BadArgumentException naming the value and the accepted ones
     */
    public static SharingWay parse(String name) {
        return FlagNames.parse(values(), SharingWay::flagName, "way", name);
    }
}
