/**
 * The baseline RDMA MCS queue lock, and the queue protocol ({@link io.remus.alock.mcs.QueueLock}) that it
 * shares with ALock's cohorts.
 *
 * With {@code context} the {@link io.remus.alock.LockContext} of compute thread {@code t}:
 * {@snippet :
 * RdmaMcsLock lock = new RdmaMcsLock(context, LockWord.allocate(t, t.allocator(), 1));
 * lock.lock();     // swap the tail to this thread's queue node (RDMA), then spin on that node locally
 * lock.unlock();   // hand the lock to the successor, or empty the queue
 * }
 */
package io.remus.alock.mcs;
