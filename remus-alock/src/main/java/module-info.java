/**
 * Remus locks: ALock, the asymmetric lock for RDMA (Baran, Nelson-Slivon, Tseng, Palmieri, SPAA
 * 2024), the baseline RDMA spin and MCS locks, and a lock table, all used through a
 * {@link io.remus.core.ComputeThread}.
 */
module io.remus.alock {
    requires transitive io.remus.core;

    exports io.remus.alock;
    exports io.remus.alock.kind;
    exports io.remus.alock.spin;
    exports io.remus.alock.mcs;
    exports io.remus.alock.asymmetric;
    exports io.remus.alock.queue;
    exports io.remus.alock.table;
}
