/**
 * The lock API: {@link io.remus.alock.Lock} (one compute thread's handle on one shared lock),
 * {@link io.remus.alock.kind.LockKind} (which algorithm), {@link io.remus.alock.LockContext} (a thread's
 * lock state), {@link io.remus.alock.LockOptions}, {@link io.remus.alock.LockWord} and the typed
 * errors of bad use and of waits that ran out.
 *
 * With {@code t} a compute thread of node 0 in a two-node cluster:
 * {@snippet :
 * LockContext context = new LockContext(t, LockOptions.defaults());   // one per compute thread
 * long word = LockWord.allocate(t, t.allocator(), 1);                 // a zeroed lock word on node 1
 * Lock lock = LockKind.ALOCK.open(context, word);
 * lock.lock();
 * try {
 *     // the critical section
 * } finally {
 *     lock.unlock();
 * }
 * }
 *
 * <p>Packages read top to bottom: {@code table} (locks by key) over {@code kind} (which algorithm) over the
 * implementations ({@code asymmetric} over {@code mcs}, and {@code spin}) over this package, the vocabulary
 * they share, over {@code queue} (the queue nodes a lock context keeps).
 *
 * <p>Every lock word is 64 bytes, 64-byte aligned, zero when free, on its home node. Words that
 * RDMA atomics touch are never touched by CPU atomics and vice versa: on a NIC reporting
 * IBV_ATOMIC_HCA the two are not atomic with each other.
 *
 * <h2>Waits</h2>
 * Every wait of a lock (a spin on a word, a queue hand-over, joining a queue) is bounded by
 * {@link io.remus.alock.LockOptions#acquireTimeout()} and fails with
 * {@link io.remus.alock.LockTimeoutException} naming what it awaited; every remote operation under
 * it by the cluster's operation timeout. A lock waits without end only when asked to with
 * {@link io.remus.core.config.Timeouts#FOREVER}.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name, thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check.
 */
package io.remus.alock;
