package io.remus.ds.identity;

/**
 * The kinds of structure whose root carries a {@link StructureIdentity}: each has a tag, written in its
 * identity word, and the version of its memory layout. A layout change that an older handle would misread
 * raises the version, so that the older code refuses the new structure instead of misreading it.
 */
public enum StructureKind {
    /** {@link io.remus.ds.map.RemoteHashMap} (and {@link io.remus.ds.map.TypedRemoteHashMap} over it). */
    REMOTE_HASH_MAP(1, 1, "RemoteHashMap"),
    /** {@link io.remus.ds.set.LazyListSet}. */
    LAZY_LIST_SET(2, 1, "LazyListSet"),
    /** {@link io.remus.ds.set.LockFreeListSet}. */
    LOCK_FREE_LIST_SET(3, 1, "LockFreeListSet"),
    /** {@link io.remus.ds.set.LockFreeSkipListSet}. */
    LOCK_FREE_SKIP_LIST_SET(4, 1, "LockFreeSkipListSet"),
    /** {@link io.remus.ds.queue.MpmcBoundedQueue}. */
    MPMC_BOUNDED_QUEUE(5, 1, "MpmcBoundedQueue"),
    /** {@link io.remus.ds.queue.MpmcScqQueue}. */
    MPMC_SCQ_QUEUE(6, 1, "MpmcScqQueue"),
    /** {@link io.remus.ds.queue.MpmcCrashTolerantQueue}. */
    MPMC_CRASH_TOLERANT_QUEUE(7, 1, "MpmcCrashTolerantQueue"),
    /** {@link io.remus.ds.queue.SpscRingBuffer}. */
    SPSC_RING_BUFFER(8, 1, "SpscRingBuffer"),
    /** {@link io.remus.ds.object.RemoteCounter}. */
    REMOTE_COUNTER(9, 1, "RemoteCounter"),
    /** {@link io.remus.ds.object.RemoteMaxRegister}. */
    REMOTE_MAX_REGISTER(10, 1, "RemoteMaxRegister"),
    /** {@link io.remus.ds.object.RemoteRegister}. */
    REMOTE_REGISTER(11, 1, "RemoteRegister"),
    /** {@link io.remus.ds.object.SharedStateTable}. */
    SHARED_STATE_TABLE(12, 1, "SharedStateTable"),
    /** A {@link io.remus.ds.object.WaitFreeObject} of a user's sequential object. */
    WAIT_FREE_OBJECT(13, 1, "WaitFreeObject"),
    /** {@link io.remus.ds.object.WaitFreeQueue}: a wait-free object whose state is a queue. */
    WAIT_FREE_QUEUE(14, 1, "WaitFreeQueue"),
    /** {@link io.remus.ds.object.WaitFreeStack}: a wait-free object whose state is a stack. */
    WAIT_FREE_STACK(15, 1, "WaitFreeStack"),
    /** {@link io.remus.ds.object.LockedObject}. */
    LOCKED_OBJECT(16, 1, "LockedObject");

    private final int tag;
    private final int version;
    private final String typeName;

    StructureKind(int tag, int version, String typeName) {
        this.tag = tag;
        this.version = version;
        this.typeName = typeName;
    }

    /** {@return the tag written in the identity word, 1..255, one per kind} */
    public int tag() {
        return tag;
    }

    /** {@return the version of this kind's memory layout, 1..127} */
    public int version() {
        return version;
    }

    /** {@return the kind's class name, as messages name it} */
    public String typeName() {
        return typeName;
    }

    /**
     * The kind whose tag is {@code tag}.
     *
     * @param tag a tag from an identity word
     * @return the kind, or null when no kind has that tag
     */
    static StructureKind ofTag(int tag) {
        for (StructureKind k : values()) {
            if (k.tag == tag) {
                return k;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return typeName;
    }
}
