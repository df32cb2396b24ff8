/**
 * What every structure of remus-ds puts in front of its root so that a pointer names one structure: its
 * kind, its layout version and the life of its root block. A handle attached to the wrong kind of
 * structure, or to one that was destroyed, gets a typed error instead of a hang or freed memory read as
 * data.
 *
 * <p>A structure's {@code create} allocates its root through {@link io.remus.ds.identity.StructureIdentity#allocate},
 * its {@code attach} checks it through {@link io.remus.ds.identity.StructureIdentity#attach}, and its
 * {@code destroy} frees it through {@link io.remus.ds.identity.StructureIdentity#destroy}; a user meets this
 * package as {@link io.remus.ds.identity.WrongStructureException}:
 *
 * <pre>{@code
 * long ptr = MpmcScqQueue.create(thread, 64).ptr();
 * MpmcBoundedQueue.attach(other, ptr);   // WrongStructureException: ... is not a MpmcBoundedQueue: it is a MpmcScqQueue
 * }</pre>
 */
package io.remus.ds.identity;
