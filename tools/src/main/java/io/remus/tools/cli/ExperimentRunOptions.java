package io.remus.tools.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The run flags that {@code experiment sharing} and {@code experiment kv} share, a picocli mixin: {@code --nodes},
 * {@code --seed}, {@code --segment-mib} and {@code --plot}; each command checks their bounds.
 */
public final class ExperimentRunOptions {
    @Option(names = "--nodes", paramLabel = "N", defaultValue = "2", description = "Nodes, 1..16 (default ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of the picks (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--segment-mib", paramLabel = "MIB", defaultValue = "64",
            description = "Memory per node, MiB, 1..1024 (default ${DEFAULT-VALUE}).")
    long segmentMib;

    @Option(names = "--plot", paramLabel = "FILE", description = "Draw throughput, p50 and p99 as grouped bars in a PNG.")
    Path plot;
}
