/**
 * Sets of {@code long} keys over one-sided RDMA (two linked lists and a skip list), each used through one handle per
 * {@link io.remus.core.ComputeThread} and driven through {@link io.remus.ds.set.RemoteSet}:
 * <ul>
 *   <li>{@link io.remus.ds.set.LazyListSet}: the lazy list (Heller, Herlihy, Luchangco, Moir, Scherer,
 *       Shavit, OPODIS 2005), Remus' lock-based list, with a remus-alock lock of a chosen kind per node;
 *       blocking insert and remove, wait-free contains;</li>
 *   <li>{@link io.remus.ds.set.LockFreeListSet}: the Harris-Michael list (Harris, DISC 2001; Michael,
 *       SPAA 2002), lock-free insert and remove, wait-free contains;</li>
 *   <li>{@link io.remus.ds.set.LockFreeSkipListSet}: the Herlihy-Shavit lock-free skip list (after Fraser,
 *       2004), an ordered set with expected logarithmic search over the same mark-bit protocol, lock-free
 *       insert and remove, wait-free contains.</li>
 * </ul>
 * All READ a visited node whole with one RDMA READ (key, next pointer and mark), keep every node on the
 * home node the set was created on, and retire removed nodes through the thread's
 * {@link io.remus.ds.reclaim.Reclaimer}.
 *
 * With {@code t} a compute thread of node 0 in a two-node cluster:
 * {@snippet :
 * try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator());
 *      RemoteSet set = LockFreeSkipListSet.create(t, reclaimer, 1)) {   // on node 1
 *     set.insert(42);      // true: it was absent
 *     set.contains(42);    // true
 *     set.remove(42);      // true: it was present
 *     // another thread: LockFreeSkipListSet.attach(itsThread, itsReclaimer, set.ptr())
 * }
 * }
 *
 * <p>Created as the objects of {@code io.remus.ds.object} are: a creator calls {@code X.create(...)}, which
 * allocates and writes the root and the head and tail sentinels before the root's pointer is known, and
 * hands {@code ptr()} to the others, each of which calls {@code X.attach(...)} with its own compute thread.
 * The root carries a {@link io.remus.ds.identity.StructureIdentity}: {@code attach} refuses another kind's
 * root with {@link io.remus.ds.identity.WrongStructureException} and a destroyed set with
 * {@link io.remus.ds.set.ClosedSetException}; of two {@code destroy()} calls on one set, in any handles,
 * exactly one marks it destroyed, and the last handle to {@code close()} frees it. Every call READs the root's handles word in the doorbell of its first READ (the head
 * sentinel's), at no extra round trip, so a call that starts after any handle's destroy returned throws
 * {@link io.remus.ds.set.ClosedSetException} instead of reading freed memory.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name, thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. No other exception type signals a null argument: the typed exceptions are for
 * values that are present but wrong. (A null remote pointer, {@code 0L}, is a value, not a Java null.)
 */
package io.remus.ds.set;
