package io.remus.tools.cli;

import picocli.CommandLine.Option;

/** {@code --seed}, a picocli mixin shared by the benchmarks whose workers draw their operations from one seed. */
public final class WorkerSeedOption {
    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Seed of the workers' choices (default ${DEFAULT-VALUE}).")
    long seed;
}
