/**
 * Queue nodes of the queue locks (MCS, ALock) and each thread's pool of them: the memory the queue protocol
 * ({@link io.remus.alock.mcs.QueueLock}) runs on, below the lock API that keeps a pool per lock context.
 *
 * With {@code context} the {@link io.remus.alock.LockContext} of compute thread {@code t}:
 * {@snippet :
 * QueueNodePool pool = context.queueNodes();  // queue nodes in this thread's node's memory
 * long node = pool.take();
 * MemorySegment words = pool.view(node);      // its words, which a waiter polls by CPU loads
 * pool.give(node);
 * }
 */
package io.remus.alock.queue;
