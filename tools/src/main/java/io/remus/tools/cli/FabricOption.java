package io.remus.tools.cli;

import io.remus.bench.perftest.FabricKind;
import picocli.CommandLine.Option;

/**
 * {@code --fabric}, a picocli mixin shared by every command that picks its fabric with {@link FabricChoice}:
 * {@code verbs}, {@code sim} or {@code shm} (one process per node only), or null when not given (then the
 * host decides). A value other than these
 * is refused by picocli's enum conversion, naming the option and the value.
 */
public final class FabricOption {
    @Option(names = "--fabric", paramLabel = "FABRIC", description = "verbs, sim, or shm (shared memory, one process per node) "
            + "(default: verbs when this host has an RDMA device, else sim).")
    FabricKind fabric;
}
