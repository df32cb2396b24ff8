package io.remus.tools.cli;

import io.remus.bench.engines.SimTime;
import io.remus.bench.replicate.LogBenchmark;
import io.remus.bench.replicate.LogBenchmarkConfig;
import io.remus.bench.replicate.LogBenchmarkResult;
import io.remus.bench.replicate.LogFailOverBenchmark;
import io.remus.bench.replicate.LogFailOverConfig;
import io.remus.bench.replicate.LogFailOverResult;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimCostModel;
import io.remus.tools.log.LogFailOverFormat;
import io.remus.tools.log.LogFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code remus bench log}: the replicated log of remus-ds ({@code io.remus.ds.replicate}, after Mu: Aguilera et al.,
 * "Microsecond Consensus for Microsecond Applications", OSDI 2020) measured as Mu reports it, one leader appending
 * entries of a given size to a group of {@code 2f + 1} members (bench-engines' {@link LogBenchmark}): the replication
 * latency of each append (median, p99), the RDMA operations, round trips and bytes the leader posts per append, and
 * the commit throughput. Runs only on the simulator in virtual time ({@code --sim-time virtual} with a
 * {@code --sim-cost} model that charges time), so its figures are the model's and the same seed gives the same JSON.
 * Every combination of {@code --replicas} and {@code --entry-bytes} runs on a fresh fabric, in that order. Exit
 * status 0 on success, 1 when a run fails, 2 for bad flags (each refusal names the flag and the value, before
 * anything runs).
 *
 * <p>With {@code --fail-over} it measures Mu's leader change instead (bench-engines' {@link LogFailOverBenchmark}):
 * every member polls a {@code ReplicaAgent} ({@code --suspect-after} unchanged heartbeat READs before it suspects a
 * member), the elected leader appends {@code --appends} entries and crashes ({@code --crash node}: its node stops
 * answering, so READs of it fail after {@code --transport-timeout-us}; {@code --crash process}: its threads stop,
 * its memory answers), and the run reports, in virtual time from the crash, the detection, the election and
 * takeover, and the first new commit, with the takeover's RDMA operations and round trips. Every combination of
 * {@code --replicas}, {@code --entry-bytes}, {@code --crash} and {@code --suspect-after} runs, in that order.
 */
@Command(name = "log", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Replicated log (Mu's common case): one leader appends entries to a group of 2f + 1 members, "
                + "each append one WRITE per follower, returning once a majority holds it. Simulator, virtual time "
                + "only: give --sim-time virtual and --sim-cost connectx3, connectx5 or connectx6.", ""})
public final class LogBenchCommand implements Callable<Integer> {
    /** Appends before the crash with {@code --fail-over} when {@code --appends} is not given. */
    static final long FAIL_OVER_APPENDS = 100;
    /** {@code --suspect-after} when not given. */
    static final int SUSPECT_AFTER = 16;
    /** {@code --transport-timeout-us} when not given. */
    static final long TRANSPORT_TIMEOUT_US = 1_000;

    @Spec
    CommandSpec spec;

    @Mixin
    SharedOptions.ReplicasOption replicasOption;

    @Option(names = "--entry-bytes", split = ",", paramLabel = "B", defaultValue = "64",
            description = "Bytes of every entry; a comma list runs each (default ${DEFAULT-VALUE}).")
    List<Integer> entryBytes;

    @Option(names = "--appends", paramLabel = "N",
            description = "Appends measured per run, one at a time (default 1000; with --fail-over: appends before "
                    + "the leader crashes, default " + FAIL_OVER_APPENDS + ").")
    Long appends;

    @Option(names = "--fail-over",
            description = "Measure a leader change instead: the elected leader crashes after --appends appends; report "
                    + "detection, election and takeover, and the first new commit, in virtual time.")
    boolean failOver;

    @Option(names = "--suspect-after", split = ",", paramLabel = "N",
            description = "With --fail-over: heartbeat READs in a row that show a member's heartbeat unchanged "
                    + "before its agent suspects it; a comma list runs each (default " + SUSPECT_AFTER + ").")
    List<Integer> suspectAfter;

    @Option(names = "--crash", split = ",", paramLabel = "KIND",
            description = "With --fail-over: node (the leader's node stops answering; READs of it fail after the "
                    + "transport timeout) or process (its threads stop, its memory answers); a comma list runs each "
                    + "(default node).")
    List<String> crash;

    @Option(names = "--transport-timeout-us", paramLabel = "US",
            description = "With --fail-over: the simulator's transport timeout, after which a request to a node that "
                    + "stopped answering fails, in microseconds of virtual time (default " + TRANSPORT_TIMEOUT_US
                    + "; the simulator's own default is 100000).")
    Long transportTimeoutUs;

    @Mixin
    SharedOptions.LogSlotsOption slotsOption;

    @Mixin
    SimCostOption simCostOption;

    @Mixin
    SimTimeOption simTimeOption;

    @Mixin
    WorkerSeedOption seedOption;

    @Mixin
    JsonOption jsonOption;

    /** Picocli creates it. */
    public LogBenchCommand() {
    }

    @Override
    public Integer call() throws InterruptedException {
        if (failOver) {
            return callFailOver();
        }
        List<LogBenchmarkConfig> configs = configs();
        SimCostModel model = simCostOption.costModel(this::usage);
        if (!simTimeOption.isVirtual()) {
            throw usage("bench log runs in virtual time only; not with --sim-time "
                    + simTimeOption.clock.name().toLowerCase(Locale.ROOT)
                    + " (give --sim-time virtual --sim-cost connectx5)");
        }
        SimTime time = simTimeOption.clock(false, null, model, seedOption.seed, List.of(), this::usage);
        List<LogBenchmarkResult> runs = new ArrayList<>();
        for (LogBenchmarkConfig config : configs) {
            runs.add(LogBenchmark.run(config, model, time));
        }
        List<String> notes = List.of("a group of N replicas is nodes 0..N-1, the leader on node 0; each member's "
                        + "applier polls its log every " + LogBenchmark.POLL_NANOS + " ns of virtual time when idle",
                "counts are the leader's compute thread's over the measured appends: its open and final commit flush "
                        + "are left out");
        PrintWriter out = spec.commandLine().getOut();
        if (jsonOption.json) {
            LogFormat.writeJson(time.label(), notes, runs, out);
        } else {
            LogFormat.writeHuman(time.label(), notes, runs, out);
        }
        return 0;
    }

    private Integer callFailOver() throws InterruptedException {
        List<LogFailOverConfig> configs = failOverConfigs();
        SimCostModel model = simCostOption.costModel(this::usage);
        if (!simTimeOption.isVirtual()) {
            throw usage("bench log runs in virtual time only; not with --sim-time "
                    + simTimeOption.clock.name().toLowerCase(Locale.ROOT)
                    + " (give --sim-time virtual --sim-cost connectx5)");
        }
        SimTime time = simTimeOption.clock(false, null, model, seedOption.seed, List.of(), this::usage);
        List<LogFailOverResult> runs = new ArrayList<>();
        for (LogFailOverConfig config : configs) {
            runs.add(LogFailOverBenchmark.run(config, model, time));
        }
        List<String> notes = List.of("fail-over: a group of N replicas is nodes 0..N-1; every member's thread polls its "
                        + "ReplicaAgent and applies its log, then pauses " + LogFailOverBenchmark.POLL_NANOS
                        + " ns of virtual time; node 0 is elected, appends, and crashes right after its last append "
                        + "returned; node 1 takes over once its agent elected it, and appends one entry",
                "times are virtual time from the crash; counts are node 1's leader compute thread's over its takeOver");
        PrintWriter out = spec.commandLine().getOut();
        if (jsonOption.json) {
            LogFailOverFormat.writeJson(time.label(), notes, runs, out);
        } else {
            LogFailOverFormat.writeHuman(time.label(), notes, runs, out);
        }
        return 0;
    }

    /**
     * Validates the flags into one configuration per run, in run order: for each group size, each entry size.
     *
     * @return the configurations
     * @throws ParameterException naming the flag and its value when one is out of range, or a flag of
     *                            {@code --fail-over} given without it
     */
    List<LogBenchmarkConfig> configs() {
        refuseWithoutFailOver("--suspect-after", suspectAfter);
        refuseWithoutFailOver("--crash", crash);
        refuseWithoutFailOver("--transport-timeout-us", transportTimeoutUs);
        List<LogBenchmarkConfig> configs = new ArrayList<>();
        try {
            for (int n : replicasOption.replicas) {
                for (int bytes : entryBytes) {
                    configs.add(new LogBenchmarkConfig(n, bytes, appends == null ? 1000 : appends, slotsOption.slots));
                }
            }
        } catch (BadArgumentException e) {
            throw usage(e.getMessage());
        }
        return configs;
    }

    /**
     * Validates the flags of a {@code --fail-over} run into one configuration per run, in run order: for each group
     * size, each entry size, each crash kind, each suspicion count.
     *
     * @return the configurations
     * @throws ParameterException naming the flag and its value when one is out of range
     */
    List<LogFailOverConfig> failOverConfigs() {
        List<LogFailOverConfig> configs = new ArrayList<>();
        try {
            List<LogFailOverConfig.Crash> kinds = new ArrayList<>();
            for (String kind : crash == null ? List.of("node") : crash) {
                try {
                    kinds.add(LogFailOverConfig.Crash.valueOf(kind.toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw new BadArgumentException("--crash must be node or process, got '" + kind + "'");
                }
            }
            long timeout = LogFailOverConfig.transportTimeoutNanos(
                    transportTimeoutUs == null ? TRANSPORT_TIMEOUT_US : transportTimeoutUs);
            for (int n : replicasOption.replicas) {
                for (int bytes : entryBytes) {
                    for (LogFailOverConfig.Crash kind : kinds) {
                        for (int suspect : suspectAfter == null ? List.of(SUSPECT_AFTER) : suspectAfter) {
                            configs.add(new LogFailOverConfig(n, bytes, appends == null ? FAIL_OVER_APPENDS : appends,
                                    slotsOption.slots, suspect, kind, timeout));
                        }
                    }
                }
            }
        } catch (BadArgumentException e) {
            throw usage(e.getMessage());
        }
        return configs;
    }

    private void refuseWithoutFailOver(String flag, Object value) {
        if (value != null) {
            throw usage(flag + " is for --fail-over runs only; give --fail-over");
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
