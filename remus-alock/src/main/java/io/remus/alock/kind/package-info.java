/**
 * Which lock algorithm: {@link io.remus.alock.kind.LockKind} names the algorithms (ALock, the RDMA spin and MCS
 * locks) and opens a handle of one on a lock word. It sits above the implementations it picks, which share
 * the vocabulary of {@link io.remus.alock}.
 *
 * With {@code context} the {@link io.remus.alock.LockContext} of compute thread {@code t}:
 * {@snippet :
 * LockKind kind = LockKind.parse("mcs");   // alock, spin, mcs, alock-remote-only or alock-parking
 * Lock lock = kind.open(context, LockWord.allocate(t, t.allocator(), 1));
 * lock.lock();
 * lock.unlock();
 * }
 */
package io.remus.alock.kind;
