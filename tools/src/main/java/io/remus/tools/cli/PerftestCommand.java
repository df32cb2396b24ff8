package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.perftest.BenchReport;
import io.remus.bench.perftest.FabricChoice;
import io.remus.core.error.BadArgumentException;
import io.remus.bench.perftest.AtomicType;
import io.remus.bench.perftest.Bandwidth;
import io.remus.bench.perftest.BenchFlags;
import io.remus.bench.perftest.BenchOperation;
import io.remus.bench.perftest.BenchRunner;
import io.remus.bench.perftest.BenchSettings;
import io.remus.bench.perftest.BenchTest;
import io.remus.bench.perftest.BenchTransport;
import io.remus.bench.perftest.FabricKind;
import io.remus.bench.perftest.ProgressLine;
import io.remus.bench.perftest.sim.SimBenchTransport;
import io.remus.bench.perftest.verbs.PerftestInline;
import io.remus.bench.perftest.verbs.VerbsBenchOptions;
import io.remus.bench.perftest.verbs.VerbsBenchServer;
import io.remus.bench.perftest.verbs.VerbsBenchTransport;
import io.remus.bench.perftest.verbs.VerbsSide;
import io.remus.tools.plot.LatencyPlot;
import io.remus.tools.report.HgrmFiles;
import io.remus.tools.report.HumanFormat;
import io.remus.tools.report.JsonFormat;
import io.remus.tools.report.PerftestFormat;
import org.HdrHistogram.HistogramLogWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * One perftest-style benchmark ({@code remus bench read-lat} and its siblings), with perftest's flags
 * and meaning: server when no address is given, client otherwise. Exit status 0 on success, 1 when
 * the run fails, 2 for bad flags. With {@code --sim-time virtual} (the simulator, a {@code --sim-cost} model) the run
 * is built and measured on the simulator's virtual-time scheduler ({@link SimTime}): no warm-up, figures in virtual
 * time, the same seed the same figures, and every output names the clock.
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true)
public final class PerftestCommand implements Callable<Integer> {
    private final BenchTest test;
    private final Supplier<FabricChoice> hostFabric;
    private final List<String> settingNotes = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SERVER",
            description = "Server address: run as the client. Without it, run as the server (perftest's rule).")
    String server;

    @Mixin
    DeviceOption deviceOption;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "PORT", defaultValue = "1", description = "Device port (verbs; default ${DEFAULT-VALUE}).")
    int ibPort;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "INDEX", description = "GID index (verbs, RoCE).")
    Integer gidIndex;

    @Option(names = {"-p", "--port"}, paramLabel = "TCP_PORT", defaultValue = "18515", description = "TCP port for the connection exchange (verbs; default ${DEFAULT-VALUE}).")
    int tcpPort;

    @Mixin
    SharedOptions.MessageSizeOption sizeOption;

    @Option(names = {"-a", "--all"}, description = "Run all sizes from 2 to 2^23 bytes.")
    boolean all;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1", description = "Run each size N times in a row on the same connection and report every run: repetitions without a JVM start-up between them (verbs: give the server the same N; default ${DEFAULT-VALUE}).")
    int repeat;

    @Mixin
    SharedOptions.IterationsOption iterationsOption;

    @Mixin
    SharedOptions.DurationOption durationOption;

    @Option(names = "--margin", paramLabel = "SECONDS", description = "With -D: time at each end not measured (default: the smaller of 2 s and a quarter of -D).")
    Double marginSeconds;

    @Mixin
    SharedOptions.TxDepthOption txDepthOption;

    @Option(names = {"-q", "--qp"}, paramLabel = "QPS", defaultValue = "1", description = "Queue pairs, bandwidth tests (default ${DEFAULT-VALUE}).")
    int queuePairs;

    @Option(names = {"-o", "--outs"}, paramLabel = "N", description = "Outstanding READs/atomics per QP (default, as perftest: the device's most, max_qp_rd_atom; verbs).")
    Integer outstanding;

    @Option(names = {"-Q", "--cq-mod"}, paramLabel = "N", description = "Bandwidth tests: ask for a completion every N work requests (and for the last). Default, as perftest: 100 (at most -t), or 1 for one size above 8192 bytes.")
    Integer cqModeration;

    @Option(names = {"-r", "--rx-depth", "--rx_depth"}, paramLabel = "DEPTH", defaultValue = "512", description = "Receives each QP holds posted, SEND tests (default ${DEFAULT-VALUE}; on sim, the node's shared receive queue holds this many per QP).")
    int rxDepth;

    @Option(names = {"-I", "--inline-size", "--inline_size"}, paramLabel = "BYTES", description = "Max inline data (verbs; default: perftest's, 220 for write-lat and 236 for send-lat on devices it knows, else 0).")
    Integer inlineSize;

    private PerftestInline.Choice inlineChoice;

    @Option(names = {"-u", "--qp-timeout", "--qp_timeout"}, paramLabel = "N", defaultValue = "14", description = "QP ACK timeout, 4.096 us * 2^N, 0..31 (default ${DEFAULT-VALUE}, ~67 ms; verbs; with -R rdma_cm chooses it).")
    int qpTimeout;

    @Option(names = {"-A", "--atomic-type", "--atomic_type"}, paramLabel = "TYPE", defaultValue = "FETCH_AND_ADD", description = "CMP_AND_SWAP or FETCH_AND_ADD (default ${DEFAULT-VALUE}).")
    AtomicType atomicType;

    @Option(names = {"-R", "--rdma-cm", "--rdma_cm"}, description = "Connect QPs with rdma_cm (verbs).")
    boolean rdmaCm;

    @Option(names = {"--report-gbits", "--report_gbits"}, description = "Report bandwidth in Gb/s (10^9 bits).")
    boolean reportGbits;

    @Mixin
    FabricOption fabricOption;

    @Option(names = "--perftest-format", description = "Print perftest's result table.")
    boolean perftestFormat;

    @Mixin
    JsonOption jsonOption;

    @Option(names = "--hgrm", paramLabel = "FILE", description = "Write the latency histogram (HdrHistogram percentile distribution, usec); one file per size with -a.")
    Path hgrm;

    @Mixin
    SharedOptions.PlotOption plotOption;

    @Option(names = "--interval-log", paramLabel = "FILE", description = "Write one-second latency interval histograms (HdrHistogram log format).")
    Path intervalLog;

    @Mixin
    SharedOptions.WarmupOption warmupOption;

    @Mixin
    SharedOptions.TimeoutOption timeoutOption = new SharedOptions.TimeoutOption(10);

    @Option(names = "--idle-timeout", paramLabel = "SECONDS", defaultValue = "3600", description = "Verbs server: longest wait for the client's next size or its end, up to 86400 (default ${DEFAULT-VALUE}).")
    double idleTimeoutSeconds;

    @Option(names = "--progress", negatable = true, defaultValue = "true", fallbackValue = "true", description = "Print a progress line on long runs (default on).")
    boolean progress;

    @Mixin
    SimLatencyOption simLatencyOption;

    @Mixin
    SimCostOption simCostOption;

    @Mixin
    SimTimeOption simTimeOption;

    /** {@code --seed}: with {@code --sim-time virtual}, the seed of the scheduler's ties; refused without it. */
    @Mixin
    WorkerSeedOption seedOption;

    @Option(names = "--words", paramLabel = "N", description = "atomic-bw: every QP's atomics go to N words (1.."
            + BenchSettings.MAX_ATOMIC_WORDS + ", 8 bytes apart) at the start of the server's buffer, in turn: 1 measures one word's atomic rate (default: perftest's spread, each QP's own 64 words, a cache line apart).")
    Integer words;

    /**
     * @param test        the benchmark this command runs
     * @param hostFabric the fabric without {@code --fabric} ({@link FabricChoice#detect})
     */
    public PerftestCommand(BenchTest test, Supplier<FabricChoice> hostFabric) {
        this.test = test;
        this.hostFabric = hostFabric;
    }

    /** @return the benchmark this command runs */
    public BenchTest test() {
        return test;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        BenchSettings settings = settings();
        FabricChoice choice = fabricChoice();
        SimTime time = simTime();
        outputFiles().check();
        List<String> notes = new ArrayList<>();
        notes.add("fabric " + choice.name() + " (" + choice.reason() + ")");
        notes.addAll(settingNotes);
        if (repeat > 1) {
            notes.add("--repeat " + repeat + ": each size runs " + repeat + " times in a row on one connection, one row "
                    + "per run" + (simTimeOption.isVirtual() ? "" : "; later runs wait for the JIT only while it is compiling"));
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        choice.announce(err);
        checkBuffers(settings, choice.kind(), BenchFlags.physicalMemoryBytes());
        checkSimulatorBounds(settings, choice.kind());
        warnIfLong(settings, err);
        if (choice.kind() == FabricKind.VERBS) {
            BenchFlags.checkPort(ibPort, deviceOption.device, VerbsSide.queryDevice(deviceOption.device).physicalPortCount());
        }
        if (choice.kind() == FabricKind.VERBS && server == null) {
            return serveVerbs(settings, err);
        }
        if (time.isVirtual()) {
            // the fabric is built, run and closed on the scheduler's first thread; the progress line would count virtual seconds
            BenchReport report = time.call(() -> {
                try (BenchTransport transport = open(choice.kind(), settings, notes)) {
                    return run(transport, settings, new ProgressLine(err, false), notes);
                }
            });
            print(report, time.label(), out, err);
            return 0;
        }
        try (BenchTransport transport = open(choice.kind(), settings, notes)) {
            print(run(transport, settings, new ProgressLine(err, progress && !jsonOption.json), notes), null, out, err);
        }
        return 0;
    }

    /**
     * Prints the report as asked ({@code --json}, {@code --perftest-format} or the table) and writes {@code --hgrm}
     * and {@code --plot}.
     *
     * @param time how its figures were timed when not by the wall clock ({@link SimTime#label()}), or null
     */
    private void print(BenchReport report, String time, PrintWriter out, PrintWriter err) throws IOException {
        if (jsonOption.json) {
            JsonFormat.write(report, time, out);
        } else if (perftestFormat) {
            PerftestFormat.write(report, time, out);
        } else {
            HumanFormat.write(report, time, out);
        }
        if (hgrm != null) {
            for (Path written : HgrmFiles.write(hgrm, report.latency(), repeat)) {
                err.println("wrote " + written);
            }
        }
        if (plotOption.plot != null) {
            LatencyPlot.write("remus bench " + test.commandName() + ", " + report.fabric() + " fabric"
                    + (time != null ? ", " + time : ""),
                    "latency, " + test.latencyKind().words() + " [us]", LatencyPlot.ofResults(report.latency(), repeat),
                    plotOption.plot);
            err.println("wrote " + plotOption.plot);
        }
    }

    /**
     * The clock of the run: the host's, or virtual time under {@code --sim-cost}'s model with {@code --seed}
     * ({@link SimTimeOption}).
     *
     * @return the clock
     * @throws ParameterException when virtual time is asked without a cost model that charges time, with a flag it cannot
     *                            honour ({@code --interval-log}, whose stamps are wall clock), or
     *                            when {@code --seed} is given without it
     */
    SimTime simTime() {
        if (!simTimeOption.isVirtual()) {
            if (matched("--seed")) {
                throw usage("--seed " + seedOption.seed + " applies to --sim-time virtual (the scheduler's ties)");
            }
            return SimTime.HOST;
        }
        if (intervalLog != null) {
            throw usage("--sim-time virtual: --interval-log " + intervalLog + " stamps its intervals with the wall clock; "
                    + "use --hgrm or --json");
        }
        return simTimeOption.clock(false, null, simCostOption.costModel(this::usage), seedOption.seed, List.of(), this::usage);
    }

    private BenchReport run(BenchTransport transport, BenchSettings settings, ProgressLine line, List<String> notes)
            throws IOException {
        if (intervalLog == null) {
            return BenchRunner.report(transport, settings, line, null, notes, reportGbits);
        }
        try (PrintStream log = new PrintStream(Files.newOutputStream(intervalLog), true, "UTF-8")) {
            HistogramLogWriter writer = new HistogramLogWriter(log);
            writer.outputComment("remus bench " + test.commandName() + ", values in nanoseconds");
            writer.outputLogFormatVersion();
            writer.outputStartTime(System.currentTimeMillis());
            writer.outputLegend();
            BenchReport report = BenchRunner.report(transport, settings, line, writer, notes, reportGbits);
            if (log.checkError()) {
                throw new IOException("--interval-log " + intervalLog + ": write failed (disk full or I/O error)");
            }
            return report;
        }
    }

    private int serveVerbs(BenchSettings s, PrintWriter err) {
        int runs = VerbsBenchServer.serve(verbsOptions(s), s, BenchFlags.bufferBytes(s), BenchFlags.signature(s),
                Duration.ofNanos(Math.round(idleTimeoutSeconds * 1e9)), err);
        err.println("remus bench server: the client ran " + runs + " run(s) (one per size and --repeat) and is done");
        err.flush();
        return 0;
    }

    /** @return how the verbs transport reaches its peer (package-private for tests) */
    VerbsBenchOptions verbsOptions(BenchSettings s) {
        return new VerbsBenchOptions(deviceOption.device, ibPort, gidIndex == null ? -1 : gidIndex, tcpPort,
                inline().bytes(), rdmaCm, server, s.timeout(),
                test.operation() == BenchOperation.SEND ? rxDepth : 0, qpTimeout);
    }

    /**
     * @return {@code -I}, or, without it, what perftest chooses for this test on this device (write-lat and
     *         send-lat ask the device; package-private for tests)
     */
    PerftestInline.Choice inline() {
        if (inlineChoice == null) {
            inlineChoice = PerftestInline.forFlags(test, inlineSize, deviceOption.device);
        }
        return inlineChoice;
    }

    /**
     * The fabric by {@link FabricChoice#choose}: a server address and the verbs flags given ({@code -d},
     * {@code -i}, {@code -x}, {@code -p}, {@code -I}, {@code -R}, {@code -u}, {@code -r}, {@code -o}) ask for
     * verbs, {@code --sim-latency-ns} and {@code --sim-cost} for the simulator.
     *
     * @throws ParameterException when the flags ask for a fabric that {@code --fabric} excludes, or for both
     */
    FabricChoice fabricChoice() {
        List<String> verbsOnly = new ArrayList<>();
        given(verbsOnly, server != null, "server address " + server);
        given(verbsOnly, deviceOption.device != null, "-d " + deviceOption.device);
        given(verbsOnly, matched("-i"), "-i " + ibPort);
        given(verbsOnly, gidIndex != null, "-x " + gidIndex);
        given(verbsOnly, matched("-p"), "-p " + tcpPort);
        given(verbsOnly, inlineSize != null, "-I " + inlineSize);
        given(verbsOnly, rdmaCm, "-R");
        given(verbsOnly, matched("-u"), "-u " + qpTimeout);
        given(verbsOnly, outstanding != null, "-o " + outstanding);
        given(verbsOnly, matched("--idle-timeout"), "--idle-timeout " + idleTimeoutSeconds);
        List<String> simOnly = new ArrayList<>(simLatencyOption.simOnly(simCostOption));
        simOnly.addAll(simTimeOption.simOnly());
        return FabricOption.choose(spec.commandLine(), fabricOption.fabric, verbsOnly, simOnly, hostFabric);
    }

    private static void given(List<String> flags, boolean given, String flag) {
        if (given) {
            flags.add(flag);
        }
    }

    /** @return the files this run will write, by option, to check before it runs */
    OutputFiles outputFiles() {
        return new OutputFiles().add("--hgrm", hgrm).add("--interval-log", intervalLog).add("--plot", plotOption.plot);
    }

    private boolean matched(String option) {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        return parsed != null && parsed.hasMatchedOption(option);
    }

    /**
     * @param s      the settings
     * @param kind   the fabric
     * @param memory this host's physical memory in bytes, or a negative value when unknown
     * @throws ParameterException when the run's buffers ({@code -s} or {@code -a} times {@code -q}) exceed it:
     *                            the simulator holds both sides' buffers in this process
     */
    void checkBuffers(BenchSettings s, FabricKind kind, long memory) {
        engineRule(() -> BenchFlags.checkBuffers(s, kind, memory));
    }

    /**
     * {@link BenchFlags#checkSimulatorBounds} for these flags.
     *
     * @param s    the settings
     * @param kind the fabric
     * @throws ParameterException naming the flags and the amount when a bound is passed
     */
    void checkSimulatorBounds(BenchSettings s, FabricKind kind) {
        engineRule(() -> flags().checkSimulatorBounds(s, kind));
    }

    /** Runs an engine rule's check, its error a usage error. */
    private void engineRule(Runnable check) {
        try {
            check.run();
        } catch (BadArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /**
     * Warns, one line on standard error, before a run that moves more than {@link BenchFlags#LONG_RUN_BYTES} bytes
     * ({@link BenchFlags#longRunWarning}).
     *
     * @return whether it warned
     */
    boolean warnIfLong(BenchSettings s, PrintWriter err) {
        String warning = BenchFlags.longRunWarning(s);
        if (warning != null) {
            err.println("remus: warning: " + warning);
            err.flush();
        }
        return warning != null;
    }

    private BenchTransport open(FabricKind kind, BenchSettings s, List<String> notes) {
        if (kind == FabricKind.VERBS) {
            return VerbsBenchTransport.forRun(verbsOptions(s), s, inline(), qpTimeout, notes);
        }
        return SimBenchTransport.forRun(s, simLatencyOption.simLatencyNanos, simCostOption.costModel(this::usage), rxDepth,
                notes);
    }

    /**
     * Validates the flags into settings.
     *
     * @return the settings
     * @throws ParameterException for flags that are out of range or do not fit together
     */
    BenchSettings settings() {
        settingNotes.clear();
        try {
            BenchFlags.wholeSeconds(durationOption.seconds);
            BenchFlags flags = flags();
            if (jsonOption.json && perftestFormat) {
                throw usage("--json and --perftest-format exclude each other");
            }
            flags.check();
            flags.checkConnection(server, idleTimeoutSeconds, matched("--idle-timeout"), tcpPort, rdmaCm, matched("-u"),
                    simLatencyOption.simLatencyNanos);
            simCostOption.costModel(this::usage);
            if (!test.isLatency() && (hgrm != null || intervalLog != null)) {
                throw usage("--hgrm and --interval-log apply to latency tests");
            }
            if (!test.isLatency() && plotOption.plot != null) {
                throw usage("--plot applies to latency tests");
            }
            BenchSettings settings = flags.settings(settingNotes);
            if (words != null) {
                if (test != BenchTest.ATOMIC_BW) {
                    throw usage("--words " + words + " applies to atomic-bw, not " + test.commandName());
                }
                if (words < 1 || words > BenchSettings.MAX_ATOMIC_WORDS) {
                    throw usage("--words must be 1.." + BenchSettings.MAX_ATOMIC_WORDS + ", got " + words);
                }
                settings = settings.withAtomicWords(words);
                settingNotes.add("atomics go to " + words + (words == 1 ? " word" : " words")
                        + " at the start of the server's buffer, shared by every QP, in turn (--words)");
            }
            return settings;
        } catch (BadArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** @return the flags the engine's rules apply to, as given */
    private BenchFlags flags() {
        return new BenchFlags(test, sizeOption.size, all, repeat, iterationsOption.iterations, warmupOption.iterations(),
                durationOption.seconds, marginSeconds, txDepthOption.depth, queuePairs, outstanding, cqModeration, rxDepth,
                qpTimeout, inlineSize, ibPort, gidIndex, atomicType, timeoutOption.seconds);
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
