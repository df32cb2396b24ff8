/**
 * Queue nodes of the queue locks (MCS, ALock) and each thread's pool of them: the memory the queue protocol
 * ({@link io.remus.alock.mcs.QueueLock}) runs on, below the lock API that keeps a pool per lock context.
 */
package io.remus.alock.queue;
