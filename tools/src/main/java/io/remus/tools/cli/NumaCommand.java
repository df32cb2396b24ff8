package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.core.fabric.Fabric;
import io.remus.bench.perftest.FabricKind;
import io.remus.bench.perftest.InProcessFabric;
import io.remus.bench.numa.NumaExperiment;
import io.remus.bench.numa.NumaNode;
import io.remus.tools.experiment.numa.NumaPlot;
import io.remus.bench.numa.NumaRow;
import io.remus.bench.numa.NumaTopology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code remus experiment numa}: memory bound to each NUMA node, the measuring thread pinned to
 * each node, one row per placement ({@link NumaExperiment}). On a machine with one node it says so
 * and reports the single placement.
 */
@Command(name = "numa", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Memory bound to one NUMA node (mbind), the thread pinned to another (sched_setaffinity), "
                + "for every pair: dependent-load latency, sequential read bandwidth, and loopback RDMA READ of "
                + "that memory; the pages' real placement read back (move_pages).")
public final class NumaCommand implements Callable<Integer> {
    private static final long MIB = 1L << 20;

    private final Supplier<FabricChoice> hostFabric;

    @Spec
    CommandSpec spec;

    @Option(names = "--size", paramLabel = "MIB", defaultValue = "64", description = "Memory bound per node, MiB (default ${DEFAULT-VALUE}; larger than the last-level cache).")
    long sizeMib;

    @Option(names = {"-n", "--steps"}, paramLabel = "N", defaultValue = "2000000", description = "Dependent loads per measurement (default ${DEFAULT-VALUE}).")
    long steps;

    @Option(names = "--rdma-iters", paramLabel = "N", defaultValue = "2000", description = "RDMA READs per placement (default ${DEFAULT-VALUE}).")
    int rdmaIterations;

    @Option(names = "--rdma-size", paramLabel = "BYTES", defaultValue = "64", description = "Bytes per RDMA READ, 1..65536 (default ${DEFAULT-VALUE}).")
    int rdmaBytes;

    @Mixin
    FabricOption fabricOption;

    @Option(names = "--no-rdma", description = "Measure CPU access only.")
    boolean noRdma;

    @Mixin
    ProbeOptions probeOptions;

    @Mixin
    SharedOptions.TimeoutOption timeoutOption = new SharedOptions.TimeoutOption(30);

    /** @param hostFabric the fabric without {@code --fabric} ({@link FabricChoice#detect}) */
    public NumaCommand(Supplier<FabricChoice> hostFabric) {
        this.hostFabric = hostFabric;
    }

    @Override
    public Integer call() throws IOException {
        check();
        FabricChoice choice = noRdma ? null : fabricChoice();
        new OutputFiles().add("--plot", probeOptions.plot.plot).check();
        NumaTopology topology = NumaTopology.read();
        PrintWriter out = spec.commandLine().getOut();
        out.println("remus experiment numa: " + sizeMib + " MiB bound per memory node, " + steps
                + " dependent loads per row");
        for (NumaNode n : topology.nodes()) {
            out.println("  node " + n.id() + ": cpus " + (n.cpus().isEmpty() ? "none" : n.cpus())
                    + (n.hasMemory() ? ", memory" : ", no memory"));
        }
        if (topology.nodes().size() == 1) {
            out.println("this machine has ONE NUMA node: only the local placement exists, so the table has one row "
                    + "and shows no cross-node cost");
        }
        List<NumaRow> rows;
        String rdmaWords;
        NumaExperiment experiment = new NumaExperiment(sizeMib * MIB, steps, rdmaIterations, rdmaBytes,
                Duration.ofNanos(Math.round(timeoutOption.seconds * 1e9)));
        if (noRdma) {
            rdmaWords = "none (--no-rdma)";
            rows = experiment.run(topology, null);
        } else {
            choice.announce(spec.commandLine().getErr());
            try (Fabric f = InProcessFabric.open(choice.kind(), probeOptions.device.device)) {
                rdmaWords = rdmaBytes + "-byte READs through node 0's loopback QP on the " + f.name() + " fabric ("
                        + choice.reason() + ")" + (choice.kind() == FabricKind.SIM
                        ? "; the simulator copies in Java, so this is not a NIC's placement cost" : "");
                rows = experiment.run(topology, f);
            }
        }
        out.println("RDMA: " + rdmaWords);
        out.printf("%-9s %-8s %-9s %-14s %14s %14s %18s%n", "cpu node", "cpu", "mem node", "pages on node",
                "load [ns]", "seq [GB/s]", "RDMA READ p50[us]");
        for (NumaRow r : rows) {
            out.printf(Locale.ROOT, "%-9d %-8d %-9d %-14s %14.1f %14.2f %18s%n", r.cpuNode(), r.cpuSeen(),
                    r.memoryNode(), String.format(Locale.ROOT, "%.1f%%", 100 * r.pagesOnNode()), r.chaseNanos(),
                    r.sequentialGBps(), r.rdmaRead() == null ? "-"
                            : String.format(Locale.ROOT, "%.2f", r.rdmaRead().median() / 1000.0));
        }
        if (probeOptions.plot.plot != null) {
            NumaPlot.write(rows, "remus experiment numa: thread node x memory node", probeOptions.plot.plot);
            out.println("plot: " + probeOptions.plot.plot);
        }
        out.flush();
        return 0;
    }

    private void check() {
        if (sizeMib < 1 || sizeMib > 1 << 20) {
            throw usage("--size must be 1..1048576 MiB, got " + sizeMib);
        }
        if (steps < 1) {
            throw usage("-n must be positive, got " + steps);
        }
        if (rdmaIterations < 1) {
            throw usage("--rdma-iters must be positive, got " + rdmaIterations);
        }
        if (rdmaBytes < 1 || rdmaBytes > 65536) {
            throw usage("--rdma-size must be 1..65536, got " + rdmaBytes);
        }
        if (timeoutOption.seconds < 1 || timeoutOption.seconds > 3600) {
            throw usage("--timeout must be 1..3600 seconds, got " + timeoutOption.text());
        }
        if (noRdma && (fabricOption.fabric != null || probeOptions.device.device != null)) {
            throw usage("--no-rdma excludes --fabric and -d");
        }
    }

    private FabricChoice fabricChoice() {
        return FabricOption.choose(spec.commandLine(), fabricOption.fabric, FabricChoice.given("-d", probeOptions.device.device), List.of(), hostFabric);
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
