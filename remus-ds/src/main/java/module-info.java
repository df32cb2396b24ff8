/**
 * Remus data structures over one-sided RDMA, used through a {@link io.remus.core.ComputeThread}:
 * wait-free objects and their lock-based twins ({@code io.remus.ds.object}), sets (lists and a skip list)
 * ({@code io.remus.ds.set}), a hash map ({@code io.remus.ds.map}), queues ({@code io.remus.ds.queue}),
 * remote memory reclamation ({@code io.remus.ds.reclaim}) and delegation of objects to their owning
 * thread ({@code io.remus.ds.delegate}).
 */
module io.remus.ds {
    requires transitive io.remus.core;
    // LockedObject's and LazyListSet's locks, in their API (LockContext, LockKind).
    requires transitive io.remus.alock;

    exports io.remus.ds.delegate;
    exports io.remus.ds.identity;
    exports io.remus.ds.map;
    exports io.remus.ds.object;
    exports io.remus.ds.queue;
    exports io.remus.ds.reclaim;
    exports io.remus.ds.set;
    // The reclamation benchmark's engine, for the remus tool's `bench reclaim` command; not a user API.
    exports io.remus.ds.reclaim.bench to io.remus.tools;
    // The wait-free objects benchmark's engine, for the remus tool's `bench object` command; not a user API.
    exports io.remus.ds.object.bench to io.remus.tools;
    // The set and map benchmark's engine, for the remus tool's `bench ds` command; not a user API.
    exports io.remus.ds.bench.structure to io.remus.tools;
    // io.remus.ds.reclaim.churn (the use-after-free churn workload) is not exported: only the
    // benchmark engine above and this module's tests run it.
}
