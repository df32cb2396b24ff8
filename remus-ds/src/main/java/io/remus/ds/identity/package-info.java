/**
 * What every structure of remus-ds puts in front of its root so that a pointer names one structure and its
 * memory lives as long as a handle on it: its kind, its layout version, the life of its root block, and the
 * count of open handles. A handle attached to the wrong kind of structure, or to one that was destroyed, gets
 * a typed error instead of a hang or freed memory read as data, and a destroyed structure's memory is freed
 * by the last of its handles to close.
 *
 * <p>A structure's {@code create} allocates its root through {@link io.remus.ds.identity.StructureIdentity#allocate},
 * its {@code attach} checks it and counts itself in through {@link io.remus.ds.identity.StructureIdentity#attach},
 * its {@code close} and {@code destroy} go through {@link io.remus.ds.identity.StructureIdentity#close} and
 * {@link io.remus.ds.identity.StructureIdentity#destroy}; a user meets this package as
 * {@link io.remus.ds.identity.WrongStructureException}:
 *
 * {@snippet :
 * long ptr = MpmcScqQueue.create(thread, 64).ptr();
 * MpmcBoundedQueue.attach(other, ptr);   // WrongStructureException: ... is not a MpmcBoundedQueue: it is a MpmcScqQueue
 * }
 */
package io.remus.ds.identity;
