/**
 * Remus core: one-sided remote memory operations over a {@link io.remus.core.fabric.Fabric}.
 *
 * <p>{@code io.remus.core} holds {@code RemotePtr}, {@code ComputeThread} and the exception
 * family; {@code io.remus.core.fabric} the fabric SPI that the verbs and simulated fabrics
 * implement; {@code io.remus.core.sim} the embedded simulated fabric; {@code io.remus.core.memory}
 * memory nodes, remote allocation, root and barrier; {@code io.remus.core.config} the cluster
 * configuration; {@code io.remus.core.verbs} the fabric over the verbs API. How the verbs
 * fabric's processes find each other ({@code io.remus.core.verbs.bootstrap}) is internal.
 *
 * <p>The downcalls are made by {@code io.remus.verbs}: an application on the module path grants
 * native access to that module alone ({@code --enable-native-access=io.remus.verbs}).
 */
module io.remus.core {
    // Not transitive: no exported signature names a type of io.remus.verbs.
    requires io.remus.verbs;

    exports io.remus.core;
    exports io.remus.core.config;
    exports io.remus.core.memory;
    exports io.remus.core.rpc;
    // The SPI is exported: RemusNode.start takes a Fabric, and a user may implement one. Its
    // implementations keep their internals package-private in their own packages.
    exports io.remus.core.fabric;
    // Public: SimFabric and SimOptions, what a user opens; the rest of the simulator is package-private.
    exports io.remus.core.sim;
    // Public: VerbsFabric, VerbsFabricOptions and BootstrapKind; the rest is package-private.
    exports io.remus.core.verbs;
    // io.remus.core.verbs.bootstrap (the bootstrap wire formats) is not exported: only
    // io.remus.core.verbs uses it. Its BootstrapProtocolException reaches a user as a RemusException.
    // io.remus.core.net (the exchange deadline of the TCP rendezvous and bootstrap) is not exported either.
}
