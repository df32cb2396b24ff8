/**
 * The baseline RDMA spin lock (compare-and-swap loop to acquire, compare-and-swap back to 0 to release).
 *
 * With {@code context} the {@link io.remus.alock.LockContext} of compute thread {@code t}:
 * {@snippet :
 * RdmaSpinLock lock = new RdmaSpinLock(context, LockWord.allocate(t, t.allocator(), 1));
 * lock.lock();     // compare-and-swap 0 to the owner's id, again until it succeeds
 * lock.unlock();   // compare-and-swap back to 0
 * }
 */
package io.remus.alock.spin;
