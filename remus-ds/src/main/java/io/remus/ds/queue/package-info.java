/**
 * Queues over one-sided RDMA: {@link io.remus.ds.queue.SpscRingBuffer}, a single-producer
 * single-consumer ring of messages in the consumer's memory, written by the producer with RDMA
 * WRITEs and polled by the consumer with CPU loads (LOCO's ring buffer).
 */
package io.remus.ds.queue;
