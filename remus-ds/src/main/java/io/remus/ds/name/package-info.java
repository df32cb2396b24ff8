/**
 * Named structures: a program publishes several structures of remus-ds by name, with create-or-attach semantics,
 * instead of sharing one root pointer. {@link io.remus.ds.name.NamedStructures} is create-or-attach over a memory
 * node's {@link io.remus.core.NameDirectory} (the raw table of names and pointers, in remus-core): the first
 * caller of a name creates the structure, every other caller in any thread and node attaches to it, and of racing
 * creators exactly one structure survives (each loser destroys its own and attaches to the winner's). A name bound
 * to another kind of structure is a {@link io.remus.ds.name.WrongNamedStructureException}; a bad name a
 * {@link io.remus.core.error.BadNameException}, before any RDMA operation; a full directory a
 * {@link io.remus.core.error.NameDirectoryFullException}; a wait for a name that nobody publishes in time a
 * {@link io.remus.core.error.NameNotPublishedException}.
 *
 * {@snippet :
 * NamedStructures names = NamedStructures.open(thread);        // the first memory node's directory
 * RemoteCounter hits = names.counter("hits", 0, 0);            // every process runs the same line
 * MpmcScqQueue jobs = names.scqQueue("jobs", 1024);
 * LockFreeListSet seen = names.createOrAttach("seen", StructureKind.LOCK_FREE_LIST_SET,
 *         () -> LockFreeListSet.create(thread, reclaimer, 1),
 *         ptr -> LockFreeListSet.attach(thread, reclaimer, ptr),
 *         LockFreeListSet::ptr, LockFreeListSet::destroy);
 * names.counter("jobs", 0, 0);   // WrongNamedStructureException: ... the name "jobs" is bound to a MpmcScqQueue
 * }
 */
package io.remus.ds.name;
