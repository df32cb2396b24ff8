package io.remus.bench.perftest;

import io.remus.core.time.ThreadTime;
import com.sun.management.HotSpotDiagnosticMXBean;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;

/**
 * One warm-up's wait for a quiet JIT, made from the benchmark's {@link JitWait}: it tells when no
 * compilation finished for the wait's quiet time (the JVM's total compilation time,
 * {@link CompilationMXBean#getTotalCompilationTime()}, stopped moving) and, asked then, the JIT is
 * compiling nothing and has nothing queued (HotSpot's {@code Compiler.queue} diagnostic command, as
 * {@code jcmd PID Compiler.queue} prints it). The total only moves when a compilation finishes: in
 * a Soft-RoCE guest (TCG) one C2 compilation of the bandwidth loop can take longer than the quiet
 * time, and the measured run then started while it was still compiling, in slower code
 * (docs/FINDINGS.md).
 * A latency test's warm-up runs until then, so that its measured operations run the compiled hot
 * path, as perftest's C loop does from its first operation. A fixed number of warm-up operations
 * is not enough where compiling is slow: in a Soft-RoCE guest (TCG) the JVM's start-up leaves a
 * backlog of compilations, and after a 2 s warm-up the client's hot path was compiled by C2 5-10 s
 * into the measured window (docs/FINDINGS.md).
 * A duration-mode write-lat or send-lat run waits at the end of its leading margin instead
 * ({@link RunClock}); READ and atomic latency ({@link TimedLoop#rehearse}) and duration-mode
 * bandwidth ({@link Bandwidth}) wait in rehearsal rounds before the measured run.
 * A benchmark waits in full once: when the JIT was found quiet (or the wait gave up), its later sizes
 * and runs warm up by their iterations, and then wait only if the JIT is compiling or has
 * compilations queued at that moment (one {@code Compiler.queue} question; if so, the full rule from
 * then on). That is for what a run leaves behind: a latency run's report (percentiles over a
 * histogram) sets off C2 compilations that ran on into the next run of {@code --repeat}, thousands
 * of instructions per measured operation in a Soft-RoCE guest (docs/FINDINGS.md,
 * "Rehearsal rounds"). The sampling
 * is control path: it reads the MXBean at most every 10 ms and is only asked during warm-up.
 */
public final class JitQuiet {
    /** The longest a warm-up waits for quiet beyond its iterations; then measuring starts anyway. */
    static final long MOST_NANOS = 60_000_000_000L;
    private static final long SAMPLE_NANOS = 10_000_000L;
    private static final long NO_CALLS = -1;

    private static final ObjectName DIAGNOSTIC_COMMANDS = diagnosticCommands();

    /**
     * Operations a warm-up that waits runs at least ({@link #quiet(long, long)}): enough passes of a
     * loop that runs once per operation for the JIT to compile it with C2 by on-stack replacement
     * (HotSpot's {@code Tier3BackEdgeThreshold} plus {@code Tier4BackEdgeThreshold}, 100,000 by
     * default). A loop in a method called once per size is compiled only that way, and its JIT
     * thresholds count passes, not time: in a Soft-RoCE guest the bandwidth loop looked quiet at
     * C1 after a second without compilations and was compiled by C2 inside the measured run.
     */
    static final long C2_OPERATIONS = backEdgesToC2();

    /**
     * Calls of code that runs once per completion poll, not once per operation, that a bandwidth
     * warm-up that waits makes with the JIT quiet ({@link #warmUpInRounds(long, boolean, LongUnaryOperator, LongSupplier)}):
     * enough for C2 to compile a method without a loop by its invocation count (HotSpot's
     * {@code Tier4InvocationThreshold}, 5,000 by default, plus the 1,024 calls,
     * {@code Tier3InvokeNotifyFreqLog}, between the times C1's profiled code asks to be compiled again). With one completion per 100 requests the
     * {@link #C2_OPERATIONS} requests poll only ~1,000 times, and in a Soft-RoCE guest the polling path
     * reached C2's threshold in the fourth or fifth run of {@code --repeat} and was compiled inside it,
     * 0.7-1.9 s of compilation on the client's vCPU (docs/FINDINGS.md).
     */
    static final long C2_INVOCATIONS = invocationsToC2();

    private final long quietNanos;
    private final LongSupplier totalCompilationMillis;
    private final BooleanSupplier compiling;
    private final JitWait benchmark;
    private final boolean later;
    private boolean waitedHere;
    private boolean asked;
    private boolean done;
    private long lastTotal = -1;
    private long lastChange;
    private long lastSample;
    private long callsAtChange;

    /**
     * @param wait   the benchmark's wait
     * @param warmup the warm-up iterations asked for
     * @return one line for a report's notes: how the warm-up ends
     */
    public static String describe(JitWait wait, long warmup) {
        return describe(wait, warmup, "operations", false);
    }

    private static String describe(JitWait wait, long warmup, String operations, boolean polls) {
        if (!wait.on()) {
            return "warm-up: " + warmup + " iterations per size (the wait for a quiet JIT is off)";
        }
        return "warm-up: at least " + warmup + " iterations per size, " + untilQuiet(wait, operations, polls);
    }

    /**
     * @param wait       the benchmark's wait
     * @param operations what the warm-up counts ("operations", "requests")
     * @return how a warm-up that waits for the JIT goes on, for a report's notes
     */
    static String untilQuiet(JitWait wait, String operations) {
        return untilQuiet(wait, operations, false);
    }

    /**
     * @param wait       the benchmark's wait
     * @param operations what the warm-up counts ("operations", "requests")
     * @param polls      whether it also counts polls ({@link #C2_INVOCATIONS}, the bandwidth tests)
     * @return how a warm-up that waits for the JIT goes on, for a report's notes
     */
    static String untilQuiet(JitWait wait, String operations, boolean polls) {
        if (!wait.on()) {
            return "one round (the wait for a quiet JIT is off)";
        }
        return "then, in the benchmark's first warm-up, more until no JIT compilation finished for "
                + wait.quietNanos() / 1_000_000 + " ms and at least " + C2_OPERATIONS + " " + operations
                + (polls ? " and " + C2_INVOCATIONS + " polls that found completions with the JIT quiet" : "") + " ran (at most "
                + MOST_NANOS / 1_000_000_000 + " s more; later sizes and runs only while the JIT is compiling)";
    }

    /**
     * @param wait   the benchmark's wait
     * @param warmup the warm-up iterations asked for
     * @return one line for a report's notes: how an iteration-mode bandwidth warm-up ends
     */
    public static String describeBandwidth(JitWait wait, long warmup) {
        String line = describe(wait, warmup, "requests", true);
        return !wait.on() ? line : line + "; the first warm-up ends with " + C2_INVOCATIONS
                + " rounds of one request per QP (the run loop reaches C2 there, not in a later run) and waits again";
    }

    /**
     * @param wait   the benchmark's wait
     * @param margin the margin at each end of a duration-mode run
     * @return one line for a report's notes: how a duration-mode warm-up ends
     */
    public static String describeMargin(JitWait wait, Duration margin) {
        String m = "warm-up: the leading margin of " + margin.toMillis() / 1000.0 + " s";
        if (!wait.on()) {
            return m + " (the wait for a quiet JIT is off); the measured window is -D less both margins";
        }
        return m + ", then, in the benchmark's first warm-up, until no JIT compilation finished for "
                + wait.quietNanos() / 1_000_000 + " ms (at most " + MOST_NANOS / 1_000_000_000
                + " s more; later sizes and runs only while the JIT is compiling); the measured window is -D less"
                + " both margins";
    }

    /**
     * A warm-up of a benchmark: the benchmark's full wait if none of its warm-ups has waited yet
     * ({@link JitWait#waited()}), else a later one, which waits only if the JIT is compiling when asked.
     *
     * @param now       the caller's clock
     * @param benchmark the benchmark's wait
     */
    JitQuiet(long now, JitWait benchmark) {
        this(now, benchmark.quietNanos(), benchmark.totalCompilationMillis(), benchmark.compiling(), benchmark,
                benchmark.waited());
    }

    /**
     * A wait of its own (tests), not a benchmark's: it needs no volume of operations and leaves no
     * mark, with {@link JitWait#DEFAULT_QUIET_NANOS} and a JIT that is never seen compiling.
     *
     * @param now                    the caller's clock
     * @param totalCompilationMillis the JIT's total compilation time so far; null when unknown
     */
    JitQuiet(long now, LongSupplier totalCompilationMillis) {
        this(now, totalCompilationMillis, () -> false);
    }

    /**
     * A wait of its own (tests), not a benchmark's, with {@link JitWait#DEFAULT_QUIET_NANOS}.
     *
     * @param now                    the caller's clock
     * @param totalCompilationMillis the JIT's total compilation time so far; null when unknown
     * @param compiling              whether the JIT is compiling or has compilations queued now
     */
    JitQuiet(long now, LongSupplier totalCompilationMillis, BooleanSupplier compiling) {
        this(now, totalCompilationMillis, compiling, false);
    }

    /**
     * A wait of its own (tests), not a benchmark's, with {@link JitWait#DEFAULT_QUIET_NANOS}.
     *
     * @param now                    the caller's clock
     * @param totalCompilationMillis the JIT's total compilation time so far; null when unknown
     * @param compiling              whether the JIT is compiling or has compilations queued now
     * @param later                  whether it waits as a later warm-up: asks {@code compiling} once,
     *                               and waits only if it says yes
     */
    JitQuiet(long now, LongSupplier totalCompilationMillis, BooleanSupplier compiling, boolean later) {
        this(now, JitWait.DEFAULT_QUIET_NANOS, totalCompilationMillis, compiling, null, later);
    }

    private JitQuiet(long now, long quietNanos, LongSupplier totalCompilationMillis, BooleanSupplier compiling,
                     JitWait benchmark, boolean later) {
        this.quietNanos = quietNanos;
        this.totalCompilationMillis = quietNanos > 0 ? totalCompilationMillis : null;
        this.compiling = compiling;
        this.benchmark = benchmark;
        this.later = later;
        this.lastChange = now;
        this.lastSample = now - SAMPLE_NANOS;
    }

    /** @return this JVM's total JIT compilation time in milliseconds, or null when it does not keep one */
    static LongSupplier compilationTime() {
        CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
        return bean != null && bean.isCompilationTimeMonitoringSupported() ? bean::getTotalCompilationTime : null;
    }

    /**
     * @param now the caller's clock ({@link ThreadTime#nanoTime()})
     * @return whether no compilation finished during the last quiet time; always true when the JVM
     *         cannot tell or the wait is turned off; in a later warm-up of a benchmark, true unless the
     *         JIT is compiling or has compilations queued at the first question
     */
    boolean quiet(long now) {
        return sample(now, NO_CALLS);
    }

    /**
     * {@link #quiet(long)}; with {@code calls} counted ({@code >= 0}), a benchmark's full wait also needs
     * {@link #C2_INVOCATIONS} of them since a compilation last finished or was seen queued.
     */
    private boolean sample(long now, long calls) {
        if (totalCompilationMillis == null || done) {
            return true;
        }
        if (later && !asked) {
            asked = true;
            if (!compiling.getAsBoolean()) {
                done = true;
                return true;
            }
            changed(now, calls); // busy: from here on the full rule
        }
        if (now - lastSample < SAMPLE_NANOS) {
            return false;
        }
        lastSample = now;
        long total = totalCompilationMillis.getAsLong();
        if (total != lastTotal) {
            lastTotal = total;
            changed(now, calls);
            return false;
        }
        if (now - lastChange >= quietNanos) {
            if (compiling.getAsBoolean()) {
                changed(now, calls); // a compilation is running or queued: ask again a quiet time later
                return false;
            }
            if (calls >= 0 && benchmark != null && !later && calls - callsAtChange < C2_INVOCATIONS) {
                return false; // quiet for the time, but the code called once per poll may not have reached C2 yet
            }
            settle();
        }
        return done;
    }

    private void changed(long now, long calls) {
        lastChange = now;
        callsAtChange = calls;
    }

    private static ObjectName diagnosticCommands() {
        try {
            return new ObjectName("com.sun.management:type=DiagnosticCommand");
        } catch (JMException e) {
            return null;
        }
    }

    /** @return whether this JVM's JIT is compiling or has compilations queued; false when it cannot tell */
    static boolean compilingNow() {
        String queue = compilerQueue();
        return queue != null && compiling(queue);
    }

    /** @return this JVM's {@code Compiler.queue} output, or null when it has no such command */
    static String compilerQueue() {
        if (DIAGNOSTIC_COMMANDS == null) {
            return null;
        }
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            Object queue = server.invoke(DIAGNOSTIC_COMMANDS, "compilerQueue", new Object[] {new String[0]},
                    new String[] {String[].class.getName()});
            return queue instanceof String text ? text : null;
        } catch (JMException | RuntimeException e) {
            return null; // then the compilation time alone decides
        }
    }

    /**
     * Reads the output of HotSpot's {@code Compiler.queue} command: a {@code Current compiles:}
     * section and one {@code ... compile queue:} section per compiler, each listing one method per
     * line, a queue saying {@code Empty} when it has none.
     *
     * @param compilerQueue the command's output
     * @return whether any section lists a method
     */
    static boolean compiling(String compilerQueue) {
        boolean inSection = false;
        for (String line : compilerQueue.split("\\R")) {
            String t = line.strip();
            if (t.endsWith(":")) {
                inSection = true;
            } else if (t.isEmpty()) {
                inSection = false;
            } else if (inSection && !t.equals("Empty")) {
                return true;
            }
        }
        return false;
    }

    /** Called when a warm-up stopped waiting at {@link #MOST_NANOS}: later warm-ups do not wait. */
    void giveUp() {
        settle();
    }

    /**
     * {@link #quiet(long)}, and, for the warm-up that waits in full for its benchmark, at least
     * {@link #C2_OPERATIONS} operations run.
     *
     * @param now        the caller's clock ({@link ThreadTime#nanoTime()})
     * @param operations the operations the warm-up has run so far
     * @return whether the warm-up may end
     */
    boolean quiet(long now, long operations) {
        return quiet(now, operations, NO_CALLS);
    }

    /**
     * {@link #quiet(long, long)}, and, for the warm-up that waits in full for its benchmark, at least
     * {@link #C2_INVOCATIONS} calls of the code that runs once per poll since a compilation last
     * finished or was seen queued (not in all: C2's thresholds grow with its queue, and a polling path
     * that had its 5,000 calls while the queue was long was compiled runs later).
     *
     * @param now        the caller's clock ({@link ThreadTime#nanoTime()})
     * @param operations the operations the warm-up has run so far
     * @param calls      the warm-up's calls so far of what runs once per poll; negative: not counted
     * @return whether the warm-up may end
     */
    boolean quiet(long now, long operations, long calls) {
        return sample(now, calls) && (!waitedHere || benchmark == null || operations >= C2_OPERATIONS);
    }

    /**
     * Runs a warm-up in rounds: after each, it ends when at least {@code atLeast} operations ran and
     * the JIT is quiet ({@link #quiet(long, long)}), or when {@link #MOST_NANOS} have passed (then it
     * {@link #giveUp() gives up}). The bandwidth tests' warm-up and the latency tests' rehearsals
     * ({@link TimedLoop#rehearse}) both run this way.
     *
     * @param atLeast   the operations the warm-up runs at least, whatever the JIT does
     * @param holdMarks whether the rounds' own windows stay unmarked ({@link WindowMarks#hold})
     * @param round     runs one round, given the operations so far; returns the operations it ran
     */
    void warmUpInRounds(long atLeast, boolean holdMarks, LongUnaryOperator round) {
        warmUpInRounds(atLeast, holdMarks, round, () -> NO_CALLS);
    }

    /**
     * {@link #warmUpInRounds(long, boolean, LongUnaryOperator)} for a loop that polls less often than
     * it operates (a bandwidth run, one completion per {@code -Q} requests): the warm-up that waits
     * in full for its benchmark also goes on until {@code calls} says the code called once per poll ran
     * {@link #C2_INVOCATIONS} times.
     *
     * @param atLeast   the operations the warm-up runs at least, whatever the JIT does
     * @param holdMarks whether the rounds' own windows stay unmarked ({@link WindowMarks#hold})
     * @param round     runs one round, given the operations so far; returns the operations it ran
     * @param calls     the warm-up's calls so far of what runs once per poll
     */
    void warmUpInRounds(long atLeast, boolean holdMarks, LongUnaryOperator round, LongSupplier calls) {
        long begin = ThreadTime.nanoTime();
        long done = 0;
        WindowMarks.hold(holdMarks);
        try {
            while (true) {
                done += round.applyAsLong(done);
                long now = ThreadTime.nanoTime();
                if (done >= atLeast && quiet(now, done, calls.getAsLong())) {
                    return;
                }
                if (now - begin >= MOST_NANOS) {
                    giveUp();
                    return;
                }
            }
        } finally {
            WindowMarks.hold(false);
        }
    }

    private static long backEdgesToC2() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (!Boolean.parseBoolean(vm.getVMOption("TieredCompilation").getValue())) {
                return Long.parseLong(vm.getVMOption("CompileThreshold").getValue())
                        * Long.parseLong(vm.getVMOption("OnStackReplacePercentage").getValue()) / 100;
            }
            return Long.parseLong(vm.getVMOption("Tier3BackEdgeThreshold").getValue())
                    + Long.parseLong(vm.getVMOption("Tier4BackEdgeThreshold").getValue());
        } catch (RuntimeException e) {
            return 100_000; // not HotSpot, or no such flag: HotSpot's default
        }
    }

    private static long invocationsToC2() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (!Boolean.parseBoolean(vm.getVMOption("TieredCompilation").getValue())) {
                return Long.parseLong(vm.getVMOption("CompileThreshold").getValue());
            }
            return Long.parseLong(vm.getVMOption("Tier4InvocationThreshold").getValue())
                    + (1L << Long.parseLong(vm.getVMOption("Tier3InvokeNotifyFreqLog").getValue()));
        } catch (RuntimeException e) {
            return 6_024; // not HotSpot, or no such flag: HotSpot's defaults
        }
    }

    /** @return whether this warm-up was the one that waited in full for its benchmark (found the JIT quiet or gave up) */
    boolean waitedForTheBenchmark() {
        return waitedHere && benchmark != null;
    }

    private void settle() {
        waitedHere = !later;
        done = true;
        if (benchmark != null) {
            benchmark.markWaited();
        }
    }
}
