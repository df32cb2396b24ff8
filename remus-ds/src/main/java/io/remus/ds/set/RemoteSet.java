package io.remus.ds.set;

/**
 * A linearizable set of {@code long} keys in remote memory, used through one handle per
 * {@link io.remus.core.ComputeThread}: the contract a benchmark drives, whatever the structure behind
 * it ({@link LazyListSet}, {@link LockFreeListSet}, {@link LockFreeSkipListSet}).
 *
 * <p>Keys are the {@code long} values {@link #MIN_KEY}..{@link #MAX_KEY}: {@link Long#MIN_VALUE} and
 * {@link Long#MAX_VALUE} are the head and tail sentinels' keys, and a call with either throws
 * {@link SetKeyException} naming the key before anything is done. A call on a closed handle, or on one
 * through which the set was destroyed, throws {@link ClosedSetException}, and so does a call on any handle, in
 * any process, that starts after any handle's destroy of the set returned: the call's first doorbell READs the
 * root's handles word along with the head sentinel and checks it before it uses what it read. A call concurrent
 * with a destroy completes on the set's memory, intact, before or after it: a destroyed set is freed by the last
 * of its handles to {@link #close()}. Each implementation's {@code attach}
 * refuses a pointer to another kind of structure, or to none, with
 * {@link io.remus.ds.identity.WrongStructureException}, and one to a destroyed set with
 * {@link ClosedSetException}. Each implementation states per method its progress guarantee, its
 * RDMA operations and round trips, and its linearization points.
 *
 * <p>A handle is confined to its compute thread's owner, like the compute thread.
 */
public interface RemoteSet extends AutoCloseable {
    /** The smallest key a set holds ({@code Long.MIN_VALUE + 1}). */
    long MIN_KEY = Long.MIN_VALUE + 1;
    /** The largest key a set holds ({@code Long.MAX_VALUE - 1}). */
    long MAX_KEY = Long.MAX_VALUE - 1;

    /**
     * Adds {@code key} when it is absent.
     *
     * @param key a key, {@link #MIN_KEY}..{@link #MAX_KEY}
     * @return true when this call added it, false when it was present
     * @throws SetKeyException    when the key is a sentinel's
     * @throws ClosedSetException when the handle is closed
     */
    boolean insert(long key);

    /**
     * Removes {@code key} when it is present.
     *
     * @param key a key, {@link #MIN_KEY}..{@link #MAX_KEY}
     * @return true when this call removed it, false when it was absent
     * @throws SetKeyException    when the key is a sentinel's
     * @throws ClosedSetException when the handle is closed
     */
    boolean remove(long key);

    /**
     * Tells whether {@code key} is present, changing nothing.
     *
     * @param key a key, {@link #MIN_KEY}..{@link #MAX_KEY}
     * @return whether it is present
     * @throws SetKeyException    when the key is a sentinel's
     * @throws ClosedSetException when the handle is closed
     */
    boolean contains(long key);

    /** {@return the set's root, to hand to the implementation's {@code attach}} */
    long ptr();

    /**
     * Ends this handle's use: frees what the handle keeps for itself (a spare node), not the set, which
     * other handles may still use. Idempotent; every later call on the handle throws
     * {@link ClosedSetException}.
     */
    @Override
    void close();
}
