package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.bench.perftest.FabricKind;
import io.remus.core.error.BadArgumentException;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.List;
import java.util.function.Supplier;

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

    /**
     * {@link FabricChoice#choose} for a command: flags that exclude each other are a usage error of {@code command}
     * (exit status 2, with its usage), as every command reports them.
     *
     * @param command     the command whose flags these are
     * @param requested   {@code --fabric}, or null when not given
     * @param verbsOnly   the flags given that only verbs honours
     * @param simOnly     the flags given that only the simulator honours
     * @param hostDefault the host's default ({@link FabricChoice#detect})
     * @return the choice
     * @throws ParameterException when the flags ask for both fabrics, or {@code requested} excludes one of them
     */
    static FabricChoice choose(CommandLine command, FabricKind requested, List<String> verbsOnly, List<String> simOnly,
                               Supplier<FabricChoice> hostDefault) {
        try {
            return FabricChoice.choose(requested, verbsOnly, simOnly, hostDefault);
        } catch (BadArgumentException e) {
            throw new ParameterException(command, e.getMessage());
        }
    }
}
