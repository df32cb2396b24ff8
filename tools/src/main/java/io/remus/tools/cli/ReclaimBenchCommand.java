package io.remus.tools.cli;

import io.remus.core.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.verbs.VerbsFabric;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.bench.ReclaimBenchmark;
import io.remus.ds.reclaim.bench.ReclaimBenchmarkConfig;
import io.remus.ds.reclaim.bench.ReclaimBenchmarkResult;
import io.remus.ds.reclaim.bench.ReclaimerKind;
import io.remus.tools.bench.BenchFailedException;
import io.remus.tools.bench.FabricKind;
import io.remus.tools.plot.ReclaimPlot;
import io.remus.tools.reclaim.ReclaimHumanFormat;
import io.remus.tools.reclaim.ReclaimJsonFormat;
import io.remus.tools.reclaim.ReclaimReport;
import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code remus bench reclaim}: remote memory reclamation under churn (remus-ds's
 * {@link ReclaimBenchmark}): throughput, unreclaimed memory over time and RDMA operations per churn
 * operation of the never-free, barrier (Remus) and epoch-with-lease reclaimers, side by side in one
 * invocation, each on a fresh fabric, optionally with one thread stalled inside a guard for the whole
 * run. {@code --plot} draws the memory of every run over time. Exit status 0 on success, 1 when a run
 * fails, 2 for bad flags.
 */
@Command(name = "reclaim", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Reclamation benchmark: never-free vs barrier (Remus) vs epochs with leases under churn, "
                + "optionally with a thread stalled in a guard.")
public final class ReclaimBenchCommand implements Callable<Integer> {
    private final Supplier<FabricChoice> hostFabric;

    @Spec
    CommandSpec spec;

    @Option(names = "--reclaimer", split = ",", paramLabel = "KIND", defaultValue = "never,barrier,epoch",
            description = "never, barrier or epoch; a comma list runs each, side by side (default ${DEFAULT-VALUE}).")
    List<String> reclaimers;

    @Option(names = "--stall", paramLabel = "MODE", arity = "0..1", fallbackValue = "yes", defaultValue = "no",
            description = "yes: one more thread on node 0 stays inside a guard for the whole run; both: every "
                    + "reclaimer runs without and with it; no (default). --stall alone means yes.")
    String stall;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "2", description = "Nodes, each a memory and compute node (default ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--threads", paramLabel = "T", defaultValue = "2", description = "Churn threads per node (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS", defaultValue = "2", description = "Run time of each run (default ${DEFAULT-VALUE}); ignored with --ops.")
    double durationSeconds;

    @Option(names = "--warmup", paramLabel = "SECONDS", defaultValue = "0.5",
            description = "Before measuring, run each reclaimer this long, unreported, so the JIT has compiled its paths (default ${DEFAULT-VALUE}; 0: none).")
    double warmupSeconds;

    @Option(names = "--ops", paramLabel = "N", description = "Operations per thread instead of a duration (not with a stalled barrier run).")
    Long ops;

    @Option(names = "--slots", paramLabel = "S", defaultValue = "64", description = "Slots of the shared churn array (default ${DEFAULT-VALUE}).")
    int slots;

    @Option(names = "--read-percent", paramLabel = "P", defaultValue = "50", description = "Share of operations that read, 0..100; the rest replace and retire (default ${DEFAULT-VALUE}).")
    int readPercent;

    @Option(names = "--lease-ms", paramLabel = "MS", defaultValue = "200", description = "Epoch reclaimer: lease of an announcement (default ${DEFAULT-VALUE}).")
    long leaseMillis;

    @Option(names = "--limit-kib", paramLabel = "KIB", defaultValue = "64", description = "Epoch reclaimer: unreclaimed KiB per thread at which a guard close waits for reclamation; a pass runs at a quarter of it (default ${DEFAULT-VALUE}).")
    long limitKib;

    @Option(names = "--barrier-every", paramLabel = "N", defaultValue = "1000", description = "Barrier reclaimer: operations between two barrier rounds (default ${DEFAULT-VALUE}).")
    int barrierEvery;

    @Option(names = "--sample-ms", paramLabel = "MS", defaultValue = "20", description = "Sampling period of the unreclaimed bytes (default ${DEFAULT-VALUE}).")
    long sampleMillis;

    @Option(names = "--segment-mib", paramLabel = "MIB", defaultValue = "256", description = "Memory per node in MiB; never-free keeps every retired block in it (default ${DEFAULT-VALUE}).")
    long segmentMib;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Seed of the workers' choices (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--fabric", paramLabel = "FABRIC", description = "verbs or sim (default: verbs when this host has an RDMA device, else sim).")
    FabricKind fabric;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEVICE", description = "RDMA device for --fabric verbs (default: the first one libibverbs lists).")
    String device;

    @Option(names = "--json", description = "Print the report as one JSON object (with every run's samples).")
    boolean json;

    @Option(names = "--plot", paramLabel = "FILE", description = "Draw unreclaimed memory over time as a PNG, one series per run.")
    Path plot;

    /** @param hostFabric the fabric without {@code --fabric} ({@link FabricChoice#detect}) */
    public ReclaimBenchCommand(Supplier<FabricChoice> hostFabric) {
        this.hostFabric = hostFabric;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<ReclaimBenchmarkConfig> configs = configs();
        FabricChoice choice = FabricChoice.choose(spec.commandLine(), fabric, FabricChoice.given("-d", device),
                List.of(), hostFabric);
        new OutputFiles().add("--plot", plot).check();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        choice.announce(err);
        List<String> notes = new ArrayList<>();
        notes.add("fabric " + choice.name() + " (" + choice.reason() + ")");
        Supplier<Fabric> fabrics = fabrics(choice.kind(), notes);
        notes.add(String.format(Locale.ROOT, "host: %d CPUs, load average %.2f at start",
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        warmUp(configs, fabrics, notes);
        List<ReclaimBenchmarkResult> runs = new ArrayList<>();
        for (ReclaimBenchmarkConfig config : configs) {
            try (Fabric f = fabrics.get()) {
                runs.add(ReclaimBenchmark.run(f, config));
            }
        }
        ReclaimReport report = new ReclaimReport(choice.name(), notes, runs);
        if (json) {
            ReclaimJsonFormat.write(report, out);
        } else {
            ReclaimHumanFormat.write(report, out);
        }
        if (plot != null) {
            ReclaimPlot.write("remus bench reclaim, " + choice.name() + " fabric, " + nodes + " nodes x " + threads
                    + " threads", runs, ReclaimReport::label, plot);
            err.println("wrote " + plot);
            err.flush();
        }
        return 0;
    }

    private void warmUp(List<ReclaimBenchmarkConfig> configs, Supplier<Fabric> fabrics, List<String> notes)
            throws InterruptedException {
        if (warmupSeconds == 0) {
            return;
        }
        Duration warmup = Duration.ofNanos(Math.round(warmupSeconds * 1e9));
        List<ReclaimerKind> done = new ArrayList<>();
        for (ReclaimBenchmarkConfig c : configs) {
            if (!done.contains(c.reclaimer())) {
                done.add(c.reclaimer());
                try (Fabric f = fabrics.get()) {
                    ReclaimBenchmark.run(f, new ReclaimBenchmarkConfig(c.reclaimer(), c.nodes(), c.threadsPerNode(),
                            warmup, 0, false, c.slots(), c.readPercent(), c.epoch(), c.barrierEvery(), c.sampleEvery(),
                            c.segmentBytes(), c.seed() + 1));
                }
            }
        }
        notes.add("warm-up: each reclaimer ran " + warmupSeconds + " s unreported before the measured runs");
    }

    private Supplier<Fabric> fabrics(FabricKind kind, List<String> notes) {
        if (kind == FabricKind.VERBS) {
            String name = device != null ? device : firstDevice();
            notes.add("device " + name + ", every node in this process (VerbsFabric.open)");
            return () -> VerbsFabric.open(name);
        }
        return () -> new SimFabric(SimOptions.defaults());
    }

    private static String firstDevice() {
        List<DeviceInfo> devices = Device.list();
        if (devices.isEmpty()) {
            throw new BenchFailedException("--fabric verbs: this host has no RDMA devices (see softroce/README.md "
                    + "for Soft-RoCE in a guest); run with --fabric sim");
        }
        return devices.getFirst().name();
    }

    /**
     * Validates the flags into one configuration per run, in run order: for each reclaimer, without
     * then with the stalled thread.
     *
     * @return the configurations
     * @throws ParameterException naming the flag and its value when one is out of range
     */
    List<ReclaimBenchmarkConfig> configs() {
        List<ReclaimerKind> kinds = new ArrayList<>();
        for (String name : reclaimers) {
            try {
                ReclaimerKind k = ReclaimerKind.parse(name.strip());
                if (kinds.contains(k)) {
                    throw usage("--reclaimer names " + k.flagName() + " twice");
                }
                kinds.add(k);
            } catch (BadArgumentException e) {
                throw usage("--reclaimer: " + e.getMessage());
            }
        }
        List<Boolean> stalls = switch (stall.strip().toLowerCase(Locale.ROOT)) {
            case "no" -> List.of(false);
            case "yes" -> List.of(true);
            case "both" -> List.of(false, true);
            default -> throw usage("--stall must be no, yes or both, got '" + stall + "'");
        };
        if (!(durationSeconds > 0) || durationSeconds > 3600) {
            throw usage("-D must be in (0, 3600] seconds, got " + durationSeconds);
        }
        if (!(warmupSeconds >= 0) || warmupSeconds > 600) {
            throw usage("--warmup must be in [0, 600] seconds, got " + warmupSeconds);
        }
        if (ops != null && ops < 1) {
            throw usage("--ops must be at least 1, got " + ops);
        }
        if (leaseMillis < 1 || leaseMillis > 3_600_000) {
            throw usage("--lease-ms must be 1..3600000, got " + leaseMillis);
        }
        if (limitKib < 1 || limitKib > (1L << 30)) {
            throw usage("--limit-kib must be 1.." + (1L << 30) + ", got " + limitKib);
        }
        if (sampleMillis < 1 || sampleMillis > 60_000) {
            throw usage("--sample-ms must be 1..60000, got " + sampleMillis);
        }
        if (segmentMib < 1 || segmentMib > 1024) {
            throw usage("--segment-mib must be 1..1024, got " + segmentMib);
        }
        long limit = limitKib << 10;
        EpochOptions epoch = ReclaimBenchmarkConfig.benchEpochOptions().withLease(Duration.ofMillis(leaseMillis))
                .withBytes(Math.max(1, limit / 4), limit);
        Duration duration = ops == null ? Duration.ofNanos(Math.round(durationSeconds * 1e9)) : null;
        List<ReclaimBenchmarkConfig> configs = new ArrayList<>();
        for (ReclaimerKind k : kinds) {
            for (boolean s : stalls) {
                try {
                    configs.add(new ReclaimBenchmarkConfig(k, nodes, threads, duration, ops == null ? 0 : ops, s, slots,
                            readPercent, epoch, barrierEvery, Duration.ofMillis(sampleMillis), segmentMib << 20, seed));
                } catch (BadArgumentException e) {
                    throw usage(flagNames(e.getMessage()));
                }
            }
        }
        return configs;
    }

    private static String flagNames(String message) {
        return message.replace("threadsPerNode", "--threads").replace("nodes must", "--nodes must")
                .replace("slots must", "--slots must").replace("readPercent", "--read-percent")
                .replace("barrierEvery", "--barrier-every")
                .replace("epoch.slots", "announcement slots per table").replace("a duration or an operation count",
                        "-D or --ops");
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
