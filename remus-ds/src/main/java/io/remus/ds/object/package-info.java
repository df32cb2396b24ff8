/**
 * Wait-free shared objects over one-sided RDMA, each used through one handle per
 * {@link io.remus.core.ComputeThread}: {@link io.remus.ds.object.RemoteCounter},
 * {@link io.remus.ds.object.RemoteMaxRegister}, {@link io.remus.ds.object.RemoteRegister} (values
 * larger than a word, out of place), {@link io.remus.ds.object.SharedStateTable} (LOCO's SST), and
 * {@link io.remus.ds.object.WaitFreeObject}, a universal construction that makes any
 * {@link io.remus.ds.object.SequentialObject} wait-free, with the {@link io.remus.ds.object.WaitFreeQueue}
 * and {@link io.remus.ds.object.WaitFreeStack} built on it; and, for comparison,
 * {@link io.remus.ds.object.LockedObject}, the blocking twin of the construction: the same sequential
 * objects kept in place under one remus-alock lock.
 *
 * With {@code t} and {@code u} compute threads of nodes 0 and 1:
 * {@snippet :
 * try (RemoteCounter counter = RemoteCounter.create(t, 1, 0)) {   // on node 1, starting at 0
 *     counter.fetchAndAdd(5);                                     // wait-free
 *     long value = counter.read();                                // 5
 *     RemoteCounter theirs = RemoteCounter.attach(u, counter.ptr());  // another thread's handle
 *     theirs.close();
 * }
 * }
 *
 * <p>Every object is created the same way: a creator calls {@code X.create(thread, node, ...)}, which
 * allocates the object's block with the thread's {@link io.remus.core.RemoteAllocator}, writes
 * it whole before its pointer is known, and returns the creator's handle; the creator hands
 * {@code handle.ptr()} to the others (through a root word, a message, a known slot), and each thread,
 * in this process or another, calls {@code X.attach(thread, ptr, ...)} with its own compute thread.
 * Each object's root carries an {@link io.remus.ds.identity.StructureIdentity} in front of it: an
 * {@code attach} refuses a pointer to another kind of structure or to no structure
 * ({@link io.remus.ds.identity.WrongStructureException}) and to a destroyed object
 * ({@link io.remus.ds.object.ClosedObjectException}); {@code destroy} frees an object once, whichever of its
 * handles calls it, and closes the handle that called it; and the operations that read the root anyway learn
 * of a destroy by any handle in that READ. Handles are confined to their compute thread's owner. Each class states per method its progress
 * guarantee, its RDMA operations and round trips per call (asserted in the tests with the compute
 * thread's counters), what it is linearizable with respect to, and the idea it follows (ROMe,
 * "Wait-free objects for RDMA", SPAA 2024; LOCO for the SST).
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name, thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong. (A null remote pointer, {@code 0L}, is a value, not a Java null.)
 */
package io.remus.ds.object;
