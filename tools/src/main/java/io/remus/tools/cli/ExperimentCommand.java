package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.core.fabric.Fabric;
import io.remus.bench.perftest.FabricKind;
import io.remus.bench.perftest.InProcessFabric;
import io.remus.bench.loopback.LoopbackExperiment;
import io.remus.tools.experiment.LoopbackPlot;
import io.remus.bench.loopback.LoopbackRow;
import io.remus.bench.stats.LatencySummary;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** {@code remus experiment}: measurements that explain design choices ({@code loopback}, {@code numa}, {@code sharing}, {@code kv}). */
@Command(name = "experiment", mixinStandardHelpOptions = true,
        description = "Experiments behind the design: loopback, numa, sharing, kv. Each prints a table and, with --plot, draws a PNG.")
public final class ExperimentCommand {
    /**
     * @param hostFabric the fabric an experiment runs on without {@code --fabric} ({@link FabricChoice#detect})
     * @return {@code experiment} with its subcommands
     */
    public static CommandLine commandLine(Supplier<FabricChoice> hostFabric) {
        CommandLine experiment = new CommandLine(new ExperimentCommand());
        experiment.addSubcommand("loopback", new Loopback(hostFabric));
        experiment.addSubcommand("numa", new NumaCommand(hostFabric));
        experiment.addSubcommand("sharing", new SharingCommand());
        experiment.addSubcommand("kv", new KvCommand());
        return experiment;
    }

    /** {@code remus experiment loopback}: local CPU vs loopback QP vs another node. */
    @Command(name = "loopback", mixinStandardHelpOptions = true,
            description = "The same 8-byte READ, WRITE and CAS as a local CPU access, through the loopback QP, "
                    + "and to another node (a second node in this process): latency and throughput side by side.")
    public static final class Loopback implements Callable<Integer> {
        private final Supplier<FabricChoice> hostFabric;

        @Spec
        CommandSpec spec;

        @Mixin
        FabricOption fabricOption;

        @Mixin
        ProbeOptions probeOptions;

        /** @param hostFabric the fabric without {@code --fabric} ({@link FabricChoice#detect}) */
        public Loopback(Supplier<FabricChoice> hostFabric) {
            this.hostFabric = hostFabric;
        }

        @Mixin
        SharedOptions.IterationsOption iterationsOption = new SharedOptions.IterationsOption(100_000);

        @Mixin
        SharedOptions.TxDepthOption txDepthOption = new SharedOptions.TxDepthOption(16);

        @Mixin
        SharedOptions.TimeoutOption timeoutOption = new SharedOptions.TimeoutOption(10);

        @Override
        public Integer call() throws IOException {
            long iterations = iterationsOption.iterations;
            int depth = txDepthOption.depth;
            double timeoutSeconds = timeoutOption.seconds;
            if (iterations < 1) {
                throw new ParameterException(spec.commandLine(), "-n must be positive, got " + iterations);
            }
            if (depth < 1 || depth > 16384) {
                throw new ParameterException(spec.commandLine(), "-t must be 1..16384, got " + depth);
            }
            if (timeoutSeconds < 1 || timeoutSeconds > 3600) {
                throw new ParameterException(spec.commandLine(), "--timeout must be 1..3600 seconds, got " + timeoutOption.text());
            }
            FabricChoice choice = FabricOption.choose(spec.commandLine(), fabricOption.fabric, FabricChoice.given("-d", probeOptions.device.device),
                    List.of(), hostFabric);
            new OutputFiles().add("--plot", probeOptions.plot.plot).check();
            choice.announce(spec.commandLine().getErr());
            List<LoopbackRow> rows;
            String name;
            try (Fabric f = InProcessFabric.open(choice.kind(), probeOptions.device.device)) {
                name = f.name();
                rows = new LoopbackExperiment(iterations, depth, Math.round(timeoutSeconds * 1e9)).run(f);
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println("remus experiment loopback on the " + name + " fabric (" + choice.reason()
                    + "): node 0 reaches an 8-byte word " + iterations + " times per row");
            out.println("latency: one at a time (RDMA: a round trip, post to completion); throughput: " + depth
                    + " RDMA operations in flight, the CPU one at a time");
            if (choice.kind() == FabricKind.SIM) {
                out.println("note: the sim fabric measures the Java data path, not a NIC; the CPU rows' latency is at "
                        + "the clock's resolution");
            } else {
                out.println("note: the remote node is node 1 in this process on the same device (its own QPs and "
                        + "memory); the CPU rows' latency is at the clock's resolution");
            }
            out.printf("%-18s %-12s %12s %12s %12s %16s%n", "operation", "path", "median[ns]", "p99[ns]", "mean[ns]",
                    "throughput[Mops]");
            for (LoopbackRow r : rows) {
                LatencySummary l = r.latency();
                out.printf("%-18s %-12s %12d %12d %12.1f %16.3f%n", r.operation(), r.path().words(), l.median(), l.p99(),
                        l.mean(), r.opsPerSecond() / 1e6);
            }
            if (probeOptions.plot.plot != null) {
                LoopbackPlot.write(rows, "remus experiment loopback, " + name + " fabric, 8-byte operations", probeOptions.plot.plot);
                out.println("plot: " + probeOptions.plot.plot);
            }
            out.flush();
            return 0;
        }
    }
}
