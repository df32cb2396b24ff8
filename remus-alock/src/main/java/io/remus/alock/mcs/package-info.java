/**
 * The baseline RDMA MCS queue lock, and the queue protocol ({@link io.remus.alock.mcs.QueueLock}) that it
 * shares with ALock's cohorts.
 */
package io.remus.alock.mcs;
