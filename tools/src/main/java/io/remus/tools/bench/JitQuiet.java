package io.remus.tools.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Tells when the JIT has gone quiet: no compilation finished for {@link #QUIET_NANOS} (the JVM's
 * total compilation time, {@link CompilationMXBean#getTotalCompilationTime()}, stopped moving).
 * A latency test's warm-up runs until then, so that its measured operations run the compiled hot
 * path, as perftest's C loop does from its first operation. A fixed number of warm-up operations
 * is not enough where compiling is slow: in a Soft-RoCE guest (TCG) the JVM's start-up leaves a
 * backlog of compilations, and after a 2 s warm-up the client's hot path was compiled by C2 5-10 s
 * into the measured window (docs/PERFORMANCE.md). The quiet time is
 * the system property {@code remus.bench.jitQuietMillis} (default 1000; 0 turns the wait off).
 * A duration-mode run waits at the end of its leading margin instead ({@link RunClock}).
 * The JVM waits once: when the JIT was found quiet (or the wait gave up), later sizes and runs in
 * this JVM warm up by their iterations only. The sampling is control path: it reads the MXBean at
 * most every 10 ms and is only asked during warm-up.
 */
public final class JitQuiet {
    /** How long no compilation may finish before the JIT counts as quiet. */
    static final long QUIET_NANOS = Long.getLong("remus.bench.jitQuietMillis", 1000) * 1_000_000L;
    /** The longest a warm-up waits for quiet beyond its iterations; then measuring starts anyway. */
    static final long MOST_NANOS = 60_000_000_000L;
    private static final long SAMPLE_NANOS = 10_000_000L;
    private static volatile boolean settled;

    private final LongSupplier totalCompilationMillis;
    private final boolean oncePerJvm;
    private boolean done;
    private long lastTotal = -1;
    private long lastChange;
    private long lastSample;

    /**
     * @param warmup the warm-up iterations asked for
     * @return one line for a report's notes: how the warm-up ends
     */
    public static String describe(long warmup) {
        if (QUIET_NANOS <= 0) {
            return "warm-up: " + warmup + " iterations per size (the wait for a quiet JIT is off)";
        }
        return "warm-up: at least " + warmup + " iterations per size, then, once per JVM, more until no JIT compilation finished "
                + "for " + QUIET_NANOS / 1_000_000 + " ms (at most " + MOST_NANOS / 1_000_000_000 + " s more)";
    }

    /**
     * @param margin the margin at each end of a duration-mode run
     * @return one line for a report's notes: how a duration-mode warm-up ends
     */
    public static String describeMargin(Duration margin) {
        String m = "warm-up: the leading margin of " + margin.toMillis() / 1000.0 + " s";
        if (QUIET_NANOS <= 0) {
            return m + " (the wait for a quiet JIT is off); the measured window is -D less both margins";
        }
        return m + ", then, once per JVM, until no JIT compilation finished for " + QUIET_NANOS / 1_000_000
                + " ms (at most " + MOST_NANOS / 1_000_000_000 + " s more); the measured window is -D less both margins";
    }

    /** A wait on this JVM's JIT, once per JVM. */
    JitQuiet(long now) {
        this(now, compilationTime(), true);
    }

    /**
     * @param now                    the caller's clock
     * @param totalCompilationMillis the JIT's total compilation time so far; null when unknown
     * @param oncePerJvm             whether the wait counts as this JVM's one wait (false: tests)
     */
    JitQuiet(long now, LongSupplier totalCompilationMillis, boolean oncePerJvm) {
        this.totalCompilationMillis = QUIET_NANOS > 0 ? totalCompilationMillis : null;
        this.oncePerJvm = oncePerJvm;
        this.lastChange = now;
        this.lastSample = now - SAMPLE_NANOS;
    }

    private static LongSupplier compilationTime() {
        CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
        return bean != null && bean.isCompilationTimeMonitoringSupported() ? bean::getTotalCompilationTime : null;
    }

    /**
     * @param now the caller's clock ({@link System#nanoTime()})
     * @return whether no compilation finished during the last {@link #QUIET_NANOS}; always true
     *         when the JVM cannot tell, the wait is turned off, or this JVM has waited once
     */
    boolean quiet(long now) {
        if (totalCompilationMillis == null || done || oncePerJvm && settled) {
            return true;
        }
        if (now - lastSample < SAMPLE_NANOS) {
            return false;
        }
        lastSample = now;
        long total = totalCompilationMillis.getAsLong();
        if (total != lastTotal) {
            lastTotal = total;
            lastChange = now;
            return false;
        }
        if (now - lastChange >= QUIET_NANOS) {
            settle();
        }
        return done;
    }

    /** Called when a warm-up stopped waiting at {@link #MOST_NANOS}: later warm-ups do not wait. */
    void giveUp() {
        settle();
    }

    private void settle() {
        done = true;
        if (oncePerJvm) {
            settled = true;
        }
    }
}
