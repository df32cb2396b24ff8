/**
 * Remus core: one-sided remote memory operations over a {@link io.remus.core.fabric.Fabric}.
 *
 * <p>Its packages read top to bottom. {@code io.remus.core} is the user's API: {@code ComputeThread}
 * and its handles, {@code RemusCluster}, {@code RemusNode}, and what is built on
 * {@code ComputeThread}: remote allocation, the root pointer, the barrier, memory nodes.
 * {@code io.remus.core.rpc} (request/response over SEND) sits beside it. Below them are the fabrics,
 * {@code io.remus.core.verbs} (with its internal {@code io.remus.core.verbs.bootstrap}), the
 * embedded simulator {@code io.remus.core.sim} and the shared-memory fabric
 * {@code io.remus.core.shm}; then the fabric SPI {@code io.remus.core.fabric};
 * then the cluster configuration {@code io.remus.core.config} (and the internal
 * {@code io.remus.core.net}); then the remote memory layout {@code io.remus.core.memory}
 * ({@code RemotePtr}, block headers, size classes, the control block); and at the bottom
 * {@code io.remus.core.time}, the clock and the waits of a thread (real, or virtual under the simulator's
 * scheduler), and {@code io.remus.core.error}, the exception family every layer throws.
 *
 * <p>The downcalls are made by {@code io.remus.verbs}: an application on the module path grants
 * native access to that module alone ({@code --enable-native-access=io.remus.verbs}).
 */
module io.remus.core {
    // Not transitive: no exported signature names a type of io.remus.verbs.
    requires io.remus.verbs;

    exports io.remus.core;
    exports io.remus.core.config;
    exports io.remus.core.error;
    exports io.remus.core.memory;
    exports io.remus.core.rpc;
    // The clock and waits of a thread, real or on the simulator's virtual-time scheduler: every layer above
    // reads the clock and waits through it.
    exports io.remus.core.time;
    // The SPI is exported: RemusNode.start takes a Fabric, and a user may implement one. Its
    // implementations keep their internals package-private in their own packages.
    exports io.remus.core.fabric;
    // Public: SimFabric and SimOptions, what a user opens; the rest of the simulator is package-private.
    exports io.remus.core.sim;
    // Public: VerbsFabric, VerbsFabricOptions and BootstrapKind; the rest is package-private.
    exports io.remus.core.verbs;
    // Public: ShmFabric, the shared-memory fabric of several processes on one host; the rest is package-private.
    exports io.remus.core.shm;
    // io.remus.core.verbs.bootstrap (the bootstrap wire formats) is not exported: only
    // io.remus.core.verbs uses it. Its BootstrapProtocolException reaches a user as a RemusException.
    // io.remus.core.net (the exchange deadline of the TCP rendezvous and bootstrap) is not exported either.
}
