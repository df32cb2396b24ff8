package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.bench.perftest.BenchTest;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.function.Supplier;

/**
 * {@code remus bench}: the perftest-style benchmarks, one subcommand each. Benchmarks of other
 * modules (the ALock engineer's {@code remus bench lock}) register here as further subcommands in
 * {@link #register(CommandLine, Supplier)}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks as perftest runs them: server without an address, client with one.")
public final class BenchCommand {
    /**
     * Adds {@code bench} and its subcommands to the top command.
     *
     * @param top         the {@code remus} command line
     * @param hostFabric the fabric a benchmark runs on without {@code --fabric} ({@link FabricChoice#detect})
     */
    public static void register(CommandLine top, Supplier<FabricChoice> hostFabric) {
        CommandLine bench = new CommandLine(new BenchCommand());
        for (BenchTest test : BenchTest.values()) {
            CommandLine sub = new CommandLine(new PerftestCommand(test, hostFabric));
            String kind = test.isLatency() ? "latency (" + test.latencyKind().words() + ")" : "bandwidth";
            sub.getCommandSpec().usageMessage().description(
                    test.operation().words() + " " + kind + ", like perftest's ib_" + test.commandName().replace('-', '_') + ".");
            bench.addSubcommand(test.commandName(), sub);
        }
        bench.addSubcommand("lock", new CommandLine(new LockBenchCommand(hostFabric)));
        bench.addSubcommand("reclaim", new CommandLine(new ReclaimBenchCommand(hostFabric)));
        bench.addSubcommand("object", new CommandLine(new ObjectBenchCommand(hostFabric)));
        bench.addSubcommand("ds", new CommandLine(new DsBenchCommand(hostFabric)));
        bench.addSubcommand("rpc-lat", new CommandLine(new RpcLatBenchCommand(hostFabric)));
        bench.addSubcommand("log", new CommandLine(new LogBenchCommand()));
        top.addSubcommand("bench", bench);
    }
}
