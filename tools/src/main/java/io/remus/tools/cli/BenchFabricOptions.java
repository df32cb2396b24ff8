package io.remus.tools.cli;

import picocli.CommandLine.Mixin;

/**
 * {@code --sim-cost}, {@code --fabric} and {@code -d}, a picocli mixin of mixins: the fabric flags of
 * {@code bench ds}, {@code object}, {@code reclaim} and {@code rpc-lat}, which {@link InProcessFabrics#choose}
 * reads.
 */
public final class BenchFabricOptions {
    @Mixin
    SimCostOption simCostOption;

    @Mixin
    FabricOption fabricOption;

    @Mixin
    DeviceOption deviceOption;
}
