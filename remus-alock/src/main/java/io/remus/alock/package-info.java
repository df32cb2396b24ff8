/**
 * The lock API: {@link io.remus.alock.Lock} (one compute thread's handle on one shared lock),
 * {@link io.remus.alock.LockKind} (which algorithm), {@link io.remus.alock.LockContext} (a thread's
 * lock state), {@link io.remus.alock.LockOptions}, {@link io.remus.alock.LockWord} and the typed
 * errors of bad use and of waits that ran out.
 *
 * <p>Every lock word is 64 bytes, 64-byte aligned, zero when free, on its home node. Words that
 * RDMA atomics touch are never touched by CPU atomics and vice versa: on a NIC reporting
 * IBV_ATOMIC_HCA the two are not atomic with each other.
 */
package io.remus.alock;
