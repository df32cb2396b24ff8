package io.remus.tools.cli;

import io.remus.core.sim.SimFabric;
import io.remus.tools.experiment.LoopbackExperiment;
import io.remus.tools.experiment.LoopbackRow;
import io.remus.tools.stats.LatencySummary;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code remus experiment}: measurements that explain design choices; {@code loopback} for now. */
@Command(name = "experiment", mixinStandardHelpOptions = true,
        description = "Experiments behind the design (loopback; numa is not written yet).")
public final class ExperimentCommand {
    /** @return {@code experiment} with its subcommands */
    public static CommandLine commandLine() {
        CommandLine experiment = new CommandLine(new ExperimentCommand());
        experiment.addSubcommand("loopback", new Loopback());
        return experiment;
    }

    /** {@code remus experiment loopback}: local CPU vs loopback QP vs another node, on the sim fabric. */
    @Command(name = "loopback", mixinStandardHelpOptions = true,
            description = "The same 8-byte READ, WRITE and CAS as a local CPU access, through the loopback QP, "
                    + "and to another node: latency and throughput side by side (sim fabric).")
    public static final class Loopback implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = {"-n", "--iters"}, paramLabel = "N", defaultValue = "100000", description = "Operations per measurement (default ${DEFAULT-VALUE}).")
        long iterations;

        @Option(names = {"-t", "--tx-depth"}, paramLabel = "DEPTH", defaultValue = "16", description = "RDMA operations in flight for throughput (default ${DEFAULT-VALUE}).")
        int depth;

        @Override
        public Integer call() {
            if (iterations < 1 || depth < 1 || depth > 16384) {
                throw new ParameterException(spec.commandLine(), "-n must be positive and -t 1..16384");
            }
            List<LoopbackRow> rows;
            try (SimFabric fabric = new SimFabric()) {
                rows = new LoopbackExperiment(iterations, depth, 10_000_000_000L).run(fabric);
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println("remus experiment loopback on the sim fabric: node 0 reaches an 8-byte word " + iterations
                    + " times per row");
            out.println("latency: one at a time (RDMA: a round trip, post to completion); throughput: " + depth
                    + " RDMA operations in flight, the CPU one at a time");
            out.println("note: the sim fabric measures the Java data path, not a NIC; the CPU rows' latency is at "
                    + "the clock's resolution");
            out.printf("%-18s %-12s %12s %12s %12s %16s%n", "operation", "path", "median[ns]", "p99[ns]", "mean[ns]",
                    "throughput[Mops]");
            for (LoopbackRow r : rows) {
                LatencySummary l = r.latency();
                out.printf("%-18s %-12s %12d %12d %12.1f %16.3f%n", r.operation(), r.path().words(), l.median(), l.p99(),
                        l.mean(), r.opsPerSecond() / 1e6);
            }
            out.flush();
            return 0;
        }
    }
}
