/** Queue nodes of the queue locks (MCS, ALock) and each thread's pool of them. */
package io.remus.alock.queue;
