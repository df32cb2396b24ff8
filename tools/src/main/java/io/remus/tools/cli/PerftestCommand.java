package io.remus.tools.cli;

import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimOptions;
import io.remus.bench.perftest.AtomicType;
import io.remus.bench.perftest.Bandwidth;
import io.remus.bench.perftest.BenchFailedException;
import io.remus.bench.perftest.BenchOperation;
import io.remus.bench.perftest.BenchRunner;
import io.remus.bench.perftest.BenchSettings;
import io.remus.bench.perftest.BenchTest;
import io.remus.bench.perftest.BenchTransport;
import io.remus.bench.perftest.FabricKind;
import io.remus.bench.perftest.JitQuiet;
import io.remus.bench.perftest.ProgressLine;
import io.remus.bench.perftest.RoundTripLatency;
import io.remus.bench.perftest.sim.SimBenchTransport;
import io.remus.bench.perftest.verbs.PerftestInline;
import io.remus.bench.perftest.verbs.VerbsBenchOptions;
import io.remus.bench.perftest.verbs.VerbsBenchServer;
import io.remus.bench.perftest.verbs.VerbsBenchTransport;
import io.remus.bench.perftest.verbs.VerbsSide;
import io.remus.tools.plot.LatencyPlot;
import io.remus.tools.report.BenchReport;
import io.remus.tools.report.HgrmFiles;
import io.remus.tools.report.HumanFormat;
import io.remus.tools.report.JsonFormat;
import io.remus.tools.report.PerftestFormat;
import io.remus.bench.stats.BandwidthSummary;
import io.remus.bench.stats.ClockCost;
import io.remus.bench.stats.LatencyResult;
import io.remus.verbs.ConnectionOptions;
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
 * the run fails, 2 for bad flags.
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true)
public final class PerftestCommand implements Callable<Integer> {
    /** The largest message size accepted. */
    public static final int MAX_SIZE = 1 << 28;
    /** The most iterations {@code -n} and {@code --warmup} accept: a run of them is days at any message rate. */
    public static final long MAX_ITERATIONS = 1_000_000_000_000L;
    /** Above this many bytes moved per run (all sizes, warm-up included) a run warns that it will take long. */
    static final long LONG_RUN_BYTES = 1L << 40;
    /**
     * On the simulator, the most bytes a run with {@code -n} may move: every size (and {@code --repeat}) times
     * {@code -n} plus {@code --warmup}, times {@code -q} for bandwidth tests. The simulator copies every
     * request's bytes word by word in this process, so a run near the cap lasts minutes; a larger one is
     * refused before it starts, and {@code -D} bounds a run instead.
     */
    public static final long SIM_MAX_RUN_BYTES = 128L << 30;
    /**
     * On the simulator, the most bytes in flight at once: {@code -q} times {@code -t} times the largest size.
     * The posting thread executes what it posts, so this bounds how far one round of posts may run past
     * {@code -D} or {@code --timeout} (seconds, not minutes).
     */
    public static final long SIM_MAX_IN_FLIGHT_BYTES = 4L << 30;
    /** On the simulator, the most work requests in flight at once ({@code -q} times {@code -t}). */
    public static final int SIM_MAX_IN_FLIGHT = 1 << 16;
    private static final int ALL_SIZES_MAX = 1 << 23;
    private static final int CLOCK_SAMPLES = 10_001;
    /** The most runs of each size {@code --repeat} accepts. */
    static final int MAX_REPEAT = 1000;
    /** perftest's default CQ moderation ({@code DEF_CQ_MOD}). */
    static final int DEFAULT_CQ_MODERATION = 100;
    /** Above this message size perftest turns CQ moderation off unless asked ({@code MSG_SIZE_CQ_MOD_LIMIT}). */
    static final int CQ_MODERATION_SIZE_LIMIT = 8192;

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
    public Integer call() throws IOException {
        BenchSettings settings = settings();
        FabricChoice choice = fabricChoice();
        outputFiles().check();
        List<String> notes = new ArrayList<>();
        notes.add("fabric " + choice.name() + " (" + choice.reason() + ")");
        notes.addAll(settingNotes);
        if (repeat > 1) {
            notes.add("--repeat " + repeat + ": each size runs " + repeat + " times in a row on one connection, one row "
                    + "per run; later runs wait for the JIT only while it is compiling");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        choice.announce(err);
        checkBuffers(settings, choice.kind(), physicalMemoryBytes());
        checkSimulatorBounds(settings, choice.kind());
        warnIfLong(settings, err);
        if (choice.kind() == FabricKind.VERBS) {
            checkPort(ibPort, deviceOption.device, VerbsSide.queryDevice(deviceOption.device).physicalPortCount());
        }
        if (choice.kind() == FabricKind.VERBS && server == null) {
            return serveVerbs(settings, err);
        }
        try (BenchTransport transport = open(choice.kind(), settings, notes)) {
            ProgressLine line = new ProgressLine(err, progress && !jsonOption.json);
            BenchReport report;
            if (test.isLatency()) {
                long clockCost = ClockCost.measureNanos(CLOCK_SAMPLES);
                notes.add("clock: System.nanoTime costs " + clockCost + " ns per call here; that is subtracted from "
                        + "each sample (perftest reads the TSC, whose cost is negligible)");
                if (test.operation() == BenchOperation.READ || test.operation() == BenchOperation.ATOMIC) {
                    if (settings.durationMode() || settings.warmupIterations() > 0) {
                        notes.add(RoundTripLatency.describeWarmUp(settings));
                    }
                } else if (settings.durationMode()) {
                    notes.add(JitQuiet.describeMargin(settings.jitWait(), settings.margin()));
                } else if (settings.warmupIterations() > 0) {
                    notes.add(JitQuiet.describe(settings.jitWait(), settings.warmupIterations()));
                }
                List<LatencyResult> results = runLatency(transport, settings, line, clockCost);
                report = new BenchReport(settings, transport.fabricName(), transport.description(), notes, results,
                        List.of(), reportGbits);
            } else {
                if (settings.durationMode()) {
                    notes.add(Bandwidth.describeDurationWarmUp(settings.jitWait(), settings.margin()));
                } else if (settings.warmupIterations() > 0) {
                    notes.add(JitQuiet.describeBandwidth(settings.jitWait(), settings.warmupIterations()));
                }
                List<BandwidthSummary> results = new BenchRunner(transport, settings, line, null).bandwidth();
                report = new BenchReport(settings, transport.fabricName(), transport.description(), notes, List.of(),
                        results, reportGbits);
            }
            if (jsonOption.json) {
                JsonFormat.write(report, out);
            } else if (perftestFormat) {
                PerftestFormat.write(report, out);
            } else {
                HumanFormat.write(report, out);
            }
            if (hgrm != null) {
                for (Path written : HgrmFiles.write(hgrm, report.latency(), repeat)) {
                    err.println("wrote " + written);
                }
            }
            if (plotOption.plot != null) {
                LatencyPlot.write("remus bench " + test.commandName() + ", " + report.fabric() + " fabric",
                        "latency, " + test.latencyKind().words() + " [us]", LatencyPlot.ofResults(report.latency(), repeat),
                        plotOption.plot);
                err.println("wrote " + plotOption.plot);
            }
        }
        return 0;
    }

    private List<LatencyResult> runLatency(BenchTransport transport, BenchSettings settings, ProgressLine line,
                                           long clockCost) throws IOException {
        if (intervalLog == null) {
            return new BenchRunner(transport, settings, line, null, clockCost).latency();
        }
        try (PrintStream log = new PrintStream(Files.newOutputStream(intervalLog), true, "UTF-8")) {
            HistogramLogWriter writer = new HistogramLogWriter(log);
            writer.outputComment("remus bench " + test.commandName() + ", values in nanoseconds");
            writer.outputLogFormatVersion();
            writer.outputStartTime(System.currentTimeMillis());
            writer.outputLegend();
            List<LatencyResult> results = new BenchRunner(transport, settings, line, writer, clockCost).latency();
            if (log.checkError()) {
                throw new IOException("--interval-log " + intervalLog + ": write failed (disk full or I/O error)");
            }
            return results;
        }
    }

    private int serveVerbs(BenchSettings s, PrintWriter err) {
        int runs = VerbsBenchServer.serve(verbsOptions(s), s, bufferBytes(s), signature(s),
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
            if (inlineSize != null) {
                inlineChoice = new PerftestInline.Choice(inlineSize, "-I " + inlineSize);
            } else {
                inlineChoice = PerftestInline.choose(test,
                        PerftestInline.dependsOnDevice(test) ? VerbsSide.queryDevice(deviceOption.device) : null);
            }
        }
        return inlineChoice;
    }

    private static long bufferBytes(BenchSettings s) {
        return Bandwidth.bufferBytes(s.maxSize(), s.queuePairs(), s.test() == BenchTest.SEND_BW);
    }

    /**
     * @return a digest of what both sides of a verbs run must agree on (stable across JVMs)
     */
    static int signature(BenchSettings s) {
        return java.util.Objects.hash(s.test().commandName(), s.sizes(), s.iterations(), s.warmupIterations(),
                s.duration(), s.margin(), s.queuePairs());
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
        if (server != null) {
            verbsOnly.add("server address " + server);
        }
        if (deviceOption.device != null) {
            verbsOnly.add("-d " + deviceOption.device);
        }
        if (matched("-i")) {
            verbsOnly.add("-i " + ibPort);
        }
        if (gidIndex != null) {
            verbsOnly.add("-x " + gidIndex);
        }
        if (matched("-p")) {
            verbsOnly.add("-p " + tcpPort);
        }
        if (inlineSize != null) {
            verbsOnly.add("-I " + inlineSize);
        }
        if (rdmaCm) {
            verbsOnly.add("-R");
        }
        if (matched("-u")) {
            verbsOnly.add("-u " + qpTimeout);
        }
        if (outstanding != null) {
            verbsOnly.add("-o " + outstanding);
        }
        if (matched("--idle-timeout")) {
            verbsOnly.add("--idle-timeout " + idleTimeoutSeconds);
        }
        return FabricChoice.choose(spec.commandLine(), fabricOption.fabric, verbsOnly, simLatencyOption.simOnly(simCostOption), hostFabric);
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
     * @param port   {@code -i}
     * @param device {@code -d}, or null for the first device
     * @param ports  how many ports the device has
     * @throws BenchFailedException when the device has no such port
     */
    static void checkPort(int port, String device, int ports) {
        if (port > ports) {
            throw new BenchFailedException("-i " + port + ": " + (device != null ? "device " + device
                    : "the first RDMA device") + " has " + (ports == 1 ? "port 1 only" : "ports 1.." + ports));
        }
    }

    /**
     * @param s      the settings
     * @param kind   the fabric
     * @param memory this host's physical memory in bytes, or a negative value when unknown
     * @throws ParameterException when the run's buffers ({@code -s} or {@code -a} times {@code -q}) exceed it:
     *                            the simulator holds both sides' buffers in this process
     */
    void checkBuffers(BenchSettings s, FabricKind kind, long memory) {
        long bytes = bufferBytes(s) * (kind == FabricKind.SIM ? 2 : 1);
        if (memory > 0 && bytes > memory) {
            throw usage("-s " + s.maxSize() + " with -q " + s.queuePairs() + " needs " + (bytes >> 20)
                    + " MiB of buffers" + (kind == FabricKind.SIM ? " (both sides, in this process)" : "")
                    + ", more than this host's " + (memory >> 20) + " MiB of memory");
        }
    }

    /**
     * The simulator's bounds on a run, checked before anything is allocated: at most
     * {@link #SIM_MAX_IN_FLIGHT} work requests and {@link #SIM_MAX_IN_FLIGHT_BYTES} in flight, and, without
     * {@code -D}, at most {@link #SIM_MAX_RUN_BYTES} moved. No bound applies on verbs, where the device
     * limits the queues and moves the bytes.
     *
     * @param s    the settings
     * @param kind the fabric
     * @throws ParameterException naming the flags and the amount when a bound is passed
     */
    void checkSimulatorBounds(BenchSettings s, FabricKind kind) {
        if (kind != FabricKind.SIM) {
            return;
        }
        int qps = test.isLatency() ? 1 : s.queuePairs();
        int depth = test.isLatency() ? 1 : Math.max(1, s.txDepth());
        long requests = (long) qps * depth;
        String t = !test.isLatency() && txDepthOption.depth != null && txDepthOption.depth != depth ? txDepthOption.depth + " (" + depth + " after the cap at -n)"
                : String.valueOf(depth);
        if (requests > SIM_MAX_IN_FLIGHT) {
            throw usage("-q " + qps + " x -t " + t + " = " + requests + " work requests in flight: the simulator "
                    + "holds at most " + SIM_MAX_IN_FLIGHT + " (it queues and executes each in this process); lower -q or -t");
        }
        long inFlight = requests * s.maxSize();
        if (inFlight > SIM_MAX_IN_FLIGHT_BYTES) {
            throw usage(String.format(java.util.Locale.ROOT, "-s %d with -q %d x -t %s puts %.1f GiB in flight: the "
                    + "simulator copies at most %d GiB per round of posts, so that -D and --timeout bound the run; "
                    + "lower -s, -q or -t", s.maxSize(), qps, t, inFlight / (double) (1L << 30),
                    SIM_MAX_IN_FLIGHT_BYTES >> 30));
        }
        if (s.durationMode()) {
            return;
        }
        double bytes = 0;
        for (int size : s.sizes()) {
            bytes += (double) size * ((double) s.iterations() + s.warmupIterations()) * qps;
        }
        if (bytes > SIM_MAX_RUN_BYTES) {
            throw usage(String.format(java.util.Locale.ROOT, "on the simulator this run moves %.1f GiB (-s %d, -n %d, "
                    + "--warmup %d%s), more than its cap of %d GiB per run (the simulator copies every byte in this "
                    + "process); lower -n or -s, or bound the run with -D", bytes / (1L << 30),
                    s.maxSize(), s.iterations(), s.warmupIterations(), test.isLatency() ? "" : ", -q " + qps,
                    SIM_MAX_RUN_BYTES >> 30));
        }
    }

    /**
     * Warns, one line on standard error, before an iteration-mode run that moves more than
     * {@link #LONG_RUN_BYTES} bytes (sizes times warm-up and measured iterations, times QPs).
     *
     * @return whether it warned
     */
    boolean warnIfLong(BenchSettings s, PrintWriter err) {
        if (s.durationMode()) {
            return false;
        }
        double bytes = 0;
        for (int size : s.sizes()) {
            bytes += (double) size * (s.iterations() + s.warmupIterations()) * (test.isLatency() ? 1 : s.queuePairs());
        }
        if (bytes <= LONG_RUN_BYTES) {
            return false;
        }
        err.println(String.format(java.util.Locale.ROOT, "remus: warning: this run moves %.1f TiB (-s %d, -n %d, "
                + "--warmup %d%s): hours at 1 GB/s; lower -n or -s, or give -D", bytes / LONG_RUN_BYTES, s.maxSize(),
                s.iterations(), s.warmupIterations(), test.isLatency() ? "" : ", -q " + s.queuePairs()));
        err.flush();
        return true;
    }

    private static long physicalMemoryBytes() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return -1;
    }

    private BenchTransport open(FabricKind kind, BenchSettings s, List<String> notes) {
        if (kind == FabricKind.VERBS) {
            PerftestInline.Choice inline = inline();
            if (inline.bytes() == 0) {
                notes.add("nothing is sent inline (" + inline.reason() + ")");
            } else {
                notes.add((test.operation() == BenchOperation.SEND ? "SENDs" : "WRITEs") + " of up to " + inline.bytes()
                        + " bytes are sent inline (" + inline.reason() + ")");
            }
            if (qpTimeout != ConnectionOptions.defaults().timeout()) {
                notes.add("QP ACK timeout " + qpTimeout + " (4.096 us * 2^" + qpTimeout + ", -u)");
            }
            return new VerbsBenchTransport(verbsOptions(s), bufferBytes(s), s.queuePairs(),
                    s.inFlightPerQueuePair(), s.outstandingReads(), signature(s), s.timeout());
        }
        if (simLatencyOption.simLatencyNanos > 0) {
            notes.add("sim execution latency injected: " + simLatencyOption.simLatencyNanos + " ns per work request");
        }
        long buffer = bufferBytes(s);
        SimCostModel cost = simCostOption.costModel(this::usage);
        if (!cost.isFree()) {
            notes.add("sim cost model " + cost.describe() + " (times are lower bounds)");
        }
        // perftest's QPs retry a receiver-not-ready peer forever (rnr_retry 7): so do the simulated ones here.
        SimOptions options = SimOptions.defaults().withExecutionLatencyNanos(simLatencyOption.simLatencyNanos).withCostModel(cost)
                .withRnrRetries(SimOptions.RNR_RETRY_FOREVER);
        return new SimBenchTransport(options, buffer, s.queuePairs(), Math.max(s.txDepth(), 1),
                test.operation() == BenchOperation.SEND ? rxDepth : 0);
    }

    /**
     * Validates the flags into settings.
     *
     * @return the settings
     * @throws ParameterException for flags that are out of range or do not fit together
     */
    BenchSettings settings() {
        settingNotes.clear();
        boolean atomic = test.operation() == BenchOperation.ATOMIC;
        Double seconds = durationOption.seconds;
        if (seconds != null && seconds != Math.rint(seconds)) {
            throw usage("-D must be a whole number of seconds, got " + seconds);
        }
        Long durationSeconds = seconds == null ? null : seconds.longValue();
        Long warmup = warmupOption.iterations();
        if (jsonOption.json && perftestFormat) {
            throw usage("--json and --perftest-format exclude each other");
        }
        if (sizeOption.size != null && all) {
            throw usage("-s and -a exclude each other");
        }
        if (sizeOption.size != null && (sizeOption.size < 1 || sizeOption.size > MAX_SIZE)) {
            throw usage("-s must be 1.." + MAX_SIZE + ", got " + sizeOption.size);
        }
        if (atomic && sizeOption.size != null && sizeOption.size != 8) {
            throw usage("atomic tests use 8-byte messages, got -s " + sizeOption.size);
        }
        if (repeat < 1 || repeat > MAX_REPEAT) {
            throw usage("--repeat must be 1.." + MAX_REPEAT + ", got " + repeat);
        }
        if (iterationsOption.iterations != null && (iterationsOption.iterations < 1 || iterationsOption.iterations > MAX_ITERATIONS)) {
            throw usage("-n must be 1.." + MAX_ITERATIONS + ", got " + iterationsOption.iterations);
        }
        if (durationSeconds != null && durationSeconds < 1) {
            throw usage("-D must be at least 1 second, got " + durationSeconds);
        }
        if (durationSeconds != null && iterationsOption.iterations != null) {
            throw usage("-D and -n exclude each other");
        }
        if (marginSeconds != null && durationSeconds == null) {
            throw usage("--margin applies only with -D");
        }
        if (txDepthOption.depth != null && (txDepthOption.depth < 1 || txDepthOption.depth > 16384)) {
            throw usage("-t must be 1..16384, got " + txDepthOption.depth);
        }
        if (queuePairs < 1 || queuePairs > 1024) {
            throw usage("-q must be 1..1024, got " + queuePairs);
        }
        if (outstanding != null && (outstanding < 1 || outstanding > 255)) {
            throw usage("-o must be 1..255, got " + outstanding);
        }
        if (cqModeration != null && (cqModeration < 1 || cqModeration > 1024)) {
            throw usage("-Q must be 1..1024, got " + cqModeration);
        }
        if (cqModeration != null && test.isLatency()) {
            throw usage("-Q applies to bandwidth tests (latency tests wait for every completion)");
        }
        if (test.isLatency() && (queuePairs != 1 || (txDepthOption.depth != null && txDepthOption.depth != 1))) {
            throw usage("latency tests run one work request at a time on one QP (-q 1, -t 1), as in perftest");
        }
        if (rxDepth < 1 || rxDepth > 16384) {
            throw usage("-r must be 1..16384, got " + rxDepth);
        }
        if (qpTimeout < 0 || qpTimeout > 31) {
            throw usage("-u must be 0..31, got " + qpTimeout);
        }
        if (inlineSize != null && inlineSize < 0) {
            throw usage("-I must not be negative, got " + inlineSize);
        }
        if (ibPort < 1 || ibPort > 255) {
            throw usage("-i must be 1..255, got " + ibPort);
        }
        if (gidIndex != null && gidIndex < 0) {
            throw usage("-x must not be negative, got " + gidIndex);
        }
        if (!(timeoutOption.seconds > 0) || timeoutOption.seconds > 3600) {
            throw usage("--timeout must be in (0, 3600] seconds, got " + timeoutOption.seconds);
        }
        if (!(idleTimeoutSeconds > 0) || idleTimeoutSeconds > 86400) {
            throw usage("--idle-timeout must be in (0, 86400] seconds, got " + idleTimeoutSeconds);
        }
        if (server != null && matched("--idle-timeout")) {
            throw usage("--idle-timeout is the server's wait for its client: not for a client (server address " + server + ")");
        }
        if (tcpPort < 1 || tcpPort > 65535) {
            throw usage("-p must be 1..65535, got " + tcpPort);
        }
        if (rdmaCm && matched("-u")) {
            throw usage("-u and -R exclude each other: with -R rdma_cm chooses the QPs' ACK timeout");
        }
        if (simLatencyOption.simLatencyNanos < 0) {
            throw usage("--sim-latency-ns must not be negative, got " + simLatencyOption.simLatencyNanos);
        }
        if (simLatencyOption.simLatencyNanos > timeoutOption.seconds * 1e9) {
            throw usage("--sim-latency-ns " + simLatencyOption.simLatencyNanos + " is longer than --timeout " + timeoutOption.seconds
                    + " s: every work request would time out");
        }
        simCostOption.costModel(this::usage);
        if (!test.isLatency() && (hgrm != null || intervalLog != null)) {
            throw usage("--hgrm and --interval-log apply to latency tests");
        }
        if (!test.isLatency() && plotOption.plot != null) {
            throw usage("--plot applies to latency tests");
        }
        List<Integer> sizes = repeated(sizes(atomic));
        long n = iterationsOption.iterations != null ? iterationsOption.iterations : test.defaultIterations();
        if (warmup != null && (warmup < 0 || warmup > MAX_ITERATIONS)) {
            throw usage("--warmup must be 0.." + MAX_ITERATIONS + ", got " + warmup);
        }
        long warm = warmup != null ? warmup : n / 10;
        Duration duration = durationSeconds == null ? null : Duration.ofSeconds(durationSeconds);
        Duration margin = null;
        if (duration != null) {
            margin = marginSeconds != null ? Duration.ofMillis(Math.round(marginSeconds * 1000))
                    : Duration.ofMillis(Math.min(2000, duration.toMillis() / 4));
            if (margin.isNegative() || margin.multipliedBy(2).compareTo(duration) >= 0) {
                throw usage("--margin must be at least 0 and less than half of -D");
            }
        }
        int depth = txDepthOption.depth != null ? txDepthOption.depth : test.defaultTxDepth();
        if (duration == null && depth > n) {
            settingNotes.add("TX depth " + depth + " capped at -n " + n + " (as perftest: no more work requests in "
                    + "flight than the run has)");
            depth = (int) n;
        }
        return new BenchSettings(test, sizes, n, warm, duration, margin, depth, queuePairs,
                outstanding == null ? BenchSettings.DEVICE_MOST_READS : outstanding,
                cqModeration(sizes, depth), atomicType, Duration.ofNanos(Math.round(timeoutOption.seconds * 1e9)));
    }

    /**
     * perftest's rule: 100, or what {@code -Q} says; 1 for a single size above 8192 bytes unless {@code -Q}
     * is given (there it buys nothing, and a completion per 100 large messages makes the last ones' time
     * coarse); never more than the TX depth. Latency tests: 1.
     */
    private int cqModeration(List<Integer> sizes, int depth) {
        if (test.isLatency()) {
            return 1;
        }
        int q = cqModeration != null ? cqModeration : DEFAULT_CQ_MODERATION;
        if (cqModeration == null && !all && sizes.getFirst() > CQ_MODERATION_SIZE_LIMIT) {
            q = 1;
        }
        return Math.min(q, depth);
    }

    private List<Integer> sizes(boolean atomic) {
        if (atomic) {
            return List.of(8);
        }
        if (!all) {
            return List.of(sizeOption.size != null ? sizeOption.size : test.defaultSize());
        }
        List<Integer> sizes = new ArrayList<>();
        for (int s = 2; s <= ALL_SIZES_MAX; s *= 2) {
            sizes.add(s);
        }
        return sizes;
    }

    /** @return each of {@code sizes} {@code repeat} times in a row */
    private List<Integer> repeated(List<Integer> sizes) {
        List<Integer> runs = new ArrayList<>(sizes.size() * repeat);
        for (int s : sizes) {
            for (int r = 0; r < repeat; r++) {
                runs.add(s);
            }
        }
        return runs;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
