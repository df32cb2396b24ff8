/**
 * ALock, the asymmetric lock for RDMA, and the layout of its lock word.
 *
 * With {@code context} the {@link io.remus.alock.LockContext} of compute thread {@code t}:
 * {@snippet :
 * ALock lock = new ALock(context, LockWord.allocate(t, t.allocator(), t.nodeId()), false);
 * lock.lock();     // the word is on this thread's node: it queues in the local cohort, by CPU atomics
 * lock.unlock();
 * }
 */
package io.remus.alock.asymmetric;
