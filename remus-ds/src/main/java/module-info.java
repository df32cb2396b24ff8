/**
 * Remus data structures over one-sided RDMA, used through a {@link io.remus.core.ComputeThread}:
 * wait-free objects ({@code io.remus.ds.object}), remote memory reclamation
 * ({@code io.remus.ds.reclaim}), the churn workload that tests and benchmarks it
 * ({@code io.remus.ds.reclaim.churn}) and the benchmark runner ({@code io.remus.ds.reclaim.bench}).
 */
module io.remus.ds {
    requires transitive io.remus.core;

    exports io.remus.ds.object;
    exports io.remus.ds.reclaim;
    exports io.remus.ds.reclaim.churn;
    exports io.remus.ds.reclaim.bench;
}
