package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.object.ObjectReport;
import io.remus.bench.perftest.FabricChoice;
import io.remus.bench.object.ObjectBenchmarkConfig;
import io.remus.bench.object.ObjectFlags;
import io.remus.bench.object.ObjectRun;
import io.remus.bench.object.ObjectRunner;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.tools.object.ObjectFormat;
import io.remus.tools.plot.ObjectPlot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code remus bench object}: the wait-free objects of remus-ds against the same objects under a lock
 * (bench-engines' {@link io.remus.bench.object.ObjectBenchmark}): throughput, the live workers' latency
 * percentiles, RDMA operations per operation, and, with {@code --stall}, how many operations the other
 * workers complete while one stands still in the middle of an operation (a locked one holding the
 * lock). Every object, implementation and stall mode given runs on a fresh fabric, side by side in one
 * table. Every node runs in this process. Exit status 0 on success, 1 when a run fails, 2 for bad flags.
 *
 * <p>{@code --sim-time virtual} (the simulator, a {@code --sim-cost} model that charges time) runs each object in the
 * simulator's virtual time ({@link SimTime}): {@code --duration} and the stall are virtual time, {@code --seed} also
 * breaks the scheduler's ties, there are no warm-ups, and the table, the JSON and the plot title say
 * "virtual time, model X, CPU charged as ..., seed N". {@link SimTimeOption#clock} refuses what it cannot run with.
 */
@Command(name = "object", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Wait-free objects vs the same objects under ALock or a spin lock, optionally with one thread "
                + "stalled in the middle of an operation for half of the run. Every node runs in this process.", ""})
public final class ObjectBenchCommand implements Callable<Integer> {
    private final Supplier<FabricChoice> hostFabric;

    @Spec
    CommandSpec spec;

    @Option(names = "--object", split = ",", paramLabel = "OBJECT", defaultValue = "queue",
            description = "counter, max, register, sst, queue or stack; a comma list runs each (default ${DEFAULT-VALUE}).")
    List<String> objects;

    @Option(names = "--impl", split = ",", paramLabel = "IMPL", defaultValue = "waitfree,alock,spin",
            description = "waitfree, alock or spin; a comma list runs each, side by side (default ${DEFAULT-VALUE}).")
    List<String> impls;

    @Mixin
    SharedOptions.StallOption stallOption = new SharedOptions.StallOption("none");

    @Mixin
    NodeCountOption nodeCountOption;

    @Mixin
    SharedOptions.ThreadsOption threadsOption;

    @Mixin
    SharedOptions.DurationOption durationOption = new SharedOptions.DurationOption(2);

    @Mixin
    SharedOptions.WarmupOption warmupOption = new SharedOptions.WarmupOption("0.5");

    @Option(names = "--elements", paramLabel = "M", defaultValue = "64", description = "Queue and stack capacity in words (default ${DEFAULT-VALUE}).")
    int elements;

    @Option(names = "--value-bytes", paramLabel = "B", defaultValue = "64", description = "Register value and SST row size, a multiple of 8 (default ${DEFAULT-VALUE}).")
    int valueBytes;

    @Mixin
    SegmentMibOption segmentMibOption;

    @Mixin
    WorkerSeedOption seedOption;

    @Mixin
    BenchFabricOptions fabricFlags;

    @Mixin
    SimTimeOption simTimeOption;

    @Mixin
    JsonOption jsonOption;

    @Mixin
    SharedOptions.PlotOption plotOption;

    /** @param hostFabric the fabric without {@code --fabric} ({@link FabricChoice#detect}) */
    public ObjectBenchCommand(Supplier<FabricChoice> hostFabric) {
        this.hostFabric = hostFabric;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<ObjectBenchmarkConfig> configs = configs();
        SimTime time = simTimeOption.clock(false, SimTimeOption.given(fabricFlags.fabricOption.fabric),
                fabricFlags.simCostOption.costModel(this::usage), seedOption.seed, List.of(), this::usage);
        InProcessFabrics.Chosen chosen = InProcessFabrics.choose(spec.commandLine(), fabricFlags, hostFabric,
                new OutputFiles().add("--plot", plotOption.plot), this::usage, simTimeOption.simOnly(), time::simOptions);
        List<String> notes = chosen.notes();
        Supplier<Fabric> fabrics = chosen.fabrics();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<ObjectRun> runs = ObjectRunner.run(fabrics, configs, warmupOption.seconds(), notes, time);
        ObjectReport report = new ObjectReport(chosen.name(), notes, runs, time.label());
        if (jsonOption.json) {
            ObjectFormat.writeJson(report, out);
        } else {
            ObjectFormat.writeHuman(report, out);
        }
        if (plotOption.plot != null) {
            ObjectBenchmarkConfig first = configs.getFirst();
            ObjectPlot.write("remus bench object, " + report.fabric() + " fabric, " + first.nodes() + " nodes x "
                    + first.threadsPerNode() + " threads, " + durationOption.seconds + " s"
                    + (report.time() == null ? "" : ", " + report.time()), runs, plotOption.plot);
            err.println("wrote " + plotOption.plot);
            err.flush();
        }
        return 0;
    }

    /**
     * Validates the flags into one configuration per run, in run order: for each object, for each stall
     * mode (without first), each implementation.
     *
     * @return the configurations
     * @throws ParameterException naming the flag and its value when one is out of range
     */
    List<ObjectBenchmarkConfig> configs() {
        try {
            return new ObjectFlags(objects, impls, stallOption.stall, nodeCountOption.nodes, threadsOption.one(),
                    durationOption.seconds, warmupOption.seconds(), elements, valueBytes, segmentMibOption.segmentMib,
                    seedOption.seed).configs();
        } catch (BadArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
