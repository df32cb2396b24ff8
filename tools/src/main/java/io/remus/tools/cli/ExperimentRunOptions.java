package io.remus.tools.cli;

import picocli.CommandLine.Mixin;

/**
 * The run flags that {@code experiment sharing} and {@code experiment kv} share, a picocli mixin of mixins:
 * {@code --nodes}, {@code --seed}, {@code --segment-mib} and {@code --plot}; each command checks their bounds.
 */
public final class ExperimentRunOptions {
    @Mixin
    NodeCountOption nodeCount;

    @Mixin
    WorkerSeedOption seed;

    @Mixin
    SegmentMibOption segment;

    @Mixin
    SharedOptions.PlotOption plot;
}
