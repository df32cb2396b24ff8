/**
 * Queues over one-sided RDMA: {@link io.remus.ds.queue.SpscRingBuffer}, a single-producer
 * single-consumer ring of messages in the consumer's memory, written by the producer with RDMA
 * WRITEs and polled by the consumer with CPU loads (LOCO's ring buffer);
 * {@link io.remus.ds.queue.MpmcBoundedQueue}, a bounded multi-producer multi-consumer FIFO of
 * words with per-slot sequence words (Vyukov's bounded MPMC queue) that every caller reaches by RDMA;
 * {@link io.remus.ds.queue.MpmcCrashTolerantQueue}, the same contract at more round trips, which a
 * caller that dies mid-call does not block (SCQ's cells and rings of cell indices, tickets claimed by
 * compare-and-swap, a poll's patience before it skips a ticket); and {@link io.remus.ds.queue.MpmcScqQueue},
 * SCQ proper, with fetch-and-add tickets and polls that never wait.
 *
 * With {@code t} and {@code u} compute threads of nodes 0 and 1:
 * {@snippet :
 * try (MpmcBoundedQueue queue = MpmcBoundedQueue.create(t, 1024);        // on t's node, 1024 words
 *      MpmcBoundedQueue theirs = MpmcBoundedQueue.attach(u, queue.ptr())) {
 *     boolean added = theirs.offer(7, Duration.ZERO);                  // false when full; never waits
 *     OptionalLong head = queue.poll(Duration.ofMillis(10));           // 7, or empty when none came in time
 * }
 * }
 */
package io.remus.ds.queue;
