/**
 * Remus data structures over one-sided RDMA, used through a {@link io.remus.core.ComputeThread}:
 * wait-free objects and their lock-based twins ({@code io.remus.ds.object}), sets (lists and a skip list)
 * ({@code io.remus.ds.set}), a hash map ({@code io.remus.ds.map}), queues ({@code io.remus.ds.queue}),
 * structures found by name ({@code io.remus.ds.name}), a worker's thread, reclaimer and lock context opened and
 * closed together ({@code io.remus.ds.context}), delegation of objects to their owning thread
 * ({@code io.remus.ds.delegate}), the remote memory reclamation they run on ({@code io.remus.ds.reclaim}), and
 * the identity every structure's root carries ({@code io.remus.ds.identity}), and a replicated, sharded key-value index
 * on the replicated log ({@code io.remus.ds.index} over {@code io.remus.ds.replicate}).
 */
module io.remus.ds {
    requires transitive io.remus.core;
    // LockedObject's and LazyListSet's locks, in their API (LockContext, LockKind).
    requires transitive io.remus.alock;

    exports io.remus.ds.context;
    exports io.remus.ds.delegate;
    exports io.remus.ds.identity;
    exports io.remus.ds.index;
    exports io.remus.ds.map;
    exports io.remus.ds.name;
    exports io.remus.ds.object;
    exports io.remus.ds.queue;
    exports io.remus.ds.reclaim;
    exports io.remus.ds.replicate;
    exports io.remus.ds.set;
}
