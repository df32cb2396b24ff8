/**
 * The benchmark and experiment engines that the {@code remus} command runs: the lock benchmark
 * ({@code io.remus.bench.lock}), the wait-free objects benchmark with the sharing and key-value
 * experiments ({@code io.remus.bench.object}), the set and map benchmark with YCSB
 * ({@code io.remus.bench.structure}), and the reclamation benchmark ({@code io.remus.bench.reclaim})
 * over the churn workload that checks for use after free ({@code io.remus.bench.churn}). Not a
 * library: a user's program calls remus-ds and remus-alock, not these.
 */
module io.remus.bench.engines {
    // The engines' configurations and results name types of io.remus.ds, io.remus.alock and io.remus.core.
    requires transitive io.remus.ds;

    exports io.remus.bench.lock;
    exports io.remus.bench.object;
    exports io.remus.bench.reclaim;
    exports io.remus.bench.structure;
    // Not exported: io.remus.bench.churn (the churn workload: only the reclamation benchmark and this
    // module's tests run it) and io.remus.bench.engines (what the engines share to join their threads).
}
