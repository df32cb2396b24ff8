/**
 * A table of locks spread over the memory nodes, acquired by key.
 *
 * With {@code context} the {@link io.remus.alock.LockContext} of compute thread {@code t}:
 * {@snippet :
 * LockTable table = LockTable.create(t, LockKind.ALOCK, 64);   // 64 lock words over the memory nodes
 * TableLocks locks = table.open(context);                      // this thread's handles on them
 * locks.lock(42);                                              // the lock that key 42 maps to
 * try {
 *     // the critical section of key 42
 * } finally {
 *     locks.unlock(42);
 * }
 * }
 */
package io.remus.alock.table;
