/**
 * Remus core: one-sided remote memory operations over a {@link io.remus.core.fabric.Fabric}.
 *
 * <p>{@code io.remus.core} holds {@code RemotePtr}, {@code ComputeThread} and the exception
 * family; {@code io.remus.core.fabric} the fabric SPI that the verbs and simulated fabrics
 * implement; {@code io.remus.core.sim} the embedded simulated fabric; {@code io.remus.core.memory}
 * memory nodes, remote allocation, root and barrier; {@code io.remus.core.config} the cluster
 * configuration; {@code io.remus.core.verbs} the fabric over the verbs API, and
 * {@code io.remus.core.verbs.bootstrap} how its processes find each other.
 */
module io.remus.core {
    requires io.remus.verbs;

    exports io.remus.core;
    exports io.remus.core.fabric;
    exports io.remus.core.sim;
    exports io.remus.core.memory;
    exports io.remus.core.config;
    exports io.remus.core.verbs;
    exports io.remus.core.verbs.bootstrap;
}
