/**
 * The benchmark and experiment engines that the {@code remus} command runs, with what they measure
 * for it to print: the perftest-style read, write, send and atomic latency and bandwidth runs
 * ({@code io.remus.bench.perftest}, on the simulator or verbs: {@code .sim}, {@code .verbs}), the lock
 * benchmark ({@code io.remus.bench.lock}), the wait-free objects benchmark with the sharing and
 * key-value experiments ({@code io.remus.bench.object}), the set and map benchmark with YCSB
 * ({@code io.remus.bench.structure}), the reclamation benchmark ({@code io.remus.bench.reclaim}) over
 * the churn workload that checks for use after free ({@code io.remus.bench.churn}), the replicated-log
 * benchmark ({@code io.remus.bench.replicate}), the loopback
 * experiment ({@code io.remus.bench.loopback}), the NUMA experiment ({@code io.remus.bench.numa}),
 * the HdrHistogram latency and bandwidth statistics they record ({@code io.remus.bench.stats}), the rows of
 * their reports as JSON, CSV and text ({@code io.remus.bench.report}), and the
 * probe of this host's RDMA devices that {@code remus devices} prints ({@code io.remus.bench.devices}).
 * Not a library: a user's program calls remus-ds and remus-alock, not these.
 */
module io.remus.bench.engines {
    // The engines' configurations and results name types of io.remus.ds, io.remus.alock and io.remus.core.
    requires transitive io.remus.ds;
    // The perftest engine's verbs transport; its inline choice, the fabric choice and the device probe name
    // io.remus.verbs types (device attributes and list); its results and the shared statistics name HdrHistogram types.
    requires transitive io.remus.verbs;
    requires transitive HdrHistogram;
    // The perftest engine's warm-up watches the JIT compiler (JitQuiet).
    requires java.management;
    requires jdk.management;

    exports io.remus.bench.devices;
    // Only SimTime, the clock a run is timed on, is meant for the command: it chooses and labels virtual time.
    exports io.remus.bench.engines to io.remus.tools;
    exports io.remus.bench.lock;
    exports io.remus.bench.loopback;
    exports io.remus.bench.numa;
    exports io.remus.bench.object;
    exports io.remus.bench.perftest;
    exports io.remus.bench.perftest.sim;
    exports io.remus.bench.perftest.verbs;
    exports io.remus.bench.reclaim;
    exports io.remus.bench.replicate;
    exports io.remus.bench.report;
    exports io.remus.bench.stats;
    exports io.remus.bench.structure;
    // Not exported: io.remus.bench.churn (the churn workload: only the reclamation benchmark and this
    // module's tests run it) and io.remus.bench.engines (what the engines share to join their threads).
}
