/**
 * A worker's resources in one try-with-resources: {@link io.remus.ds.context.WorkerContext} opens an application
 * thread's own {@link io.remus.core.ComputeThread}, its {@link io.remus.ds.reclaim.EpochReclaimer} and, on first use,
 * its {@link io.remus.alock.LockContext}, and closes them in the right order (the reclaimer, then the compute thread).
 *
 * With {@code node} a compute node of this process that is also a memory node:
 * {@snippet :
 * try (WorkerContext w = WorkerContext.open(node)) {            // on the worker's own Java thread
 *     ComputeThread t = w.thread();
 *     LockFreeSkipListSet set = LockFreeSkipListSet.create(t, w.reclaimer(), 0);
 *     set.insert(7);                                            // replaced nodes are retired to w.reclaimer()
 *     set.destroy();
 *     ALock lock = new ALock(w.locks(), LockWord.allocate(t, t.allocator(), 0), false);   // the lock context, made now
 *     lock.lock();
 *     try {
 *         // the critical section
 *     } finally {
 *         lock.unlock();
 *     }
 * }   // closes the reclaimer, then the compute thread
 * }
 *
 * <p>A worker context, like the compute thread it owns, is confined to the Java thread that opened it. Threads
 * that need another reclaimer ({@link io.remus.ds.reclaim.BarrierReclaimer},
 * {@link io.remus.ds.reclaim.NeverReclaimer}) open their compute thread and reclaimer themselves.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException} whose message is
 * the parameter's name, thrown before anything is done.
 */
package io.remus.ds.context;
