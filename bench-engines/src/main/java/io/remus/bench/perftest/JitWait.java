package io.remus.bench.perftest;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A benchmark's wait for a quiet JIT, one of its settings ({@link BenchSettings#jitWait()}): how long no
 * compilation may finish before the JIT counts as quiet, where the JIT's work is read from, and
 * whether a warm-up of this benchmark has already waited in full. Each warm-up waits through a
 * {@link JitQuiet} made from it. The JIT is the JVM's, so the sizes and {@code --repeat} runs of one
 * benchmark share one wait: its first warm-up waits in full, later ones only while the JIT is
 * compiling. The {@code remus bench} command runs one benchmark per JVM with {@link #standard()};
 * a test that counts warm-up iterations exactly runs with {@link #off()}, and a test of the wait
 * itself gives it a JIT of its own ({@link #of}).
 *
 * <p>Control path, used by the benchmark's client thread only.
 */
public final class JitWait {
    /** The system property holding {@link #standard()}'s quiet time in milliseconds; 0 turns the wait off. */
    public static final String QUIET_MILLIS_PROPERTY = "remus.bench.jitQuietMillis";
    /** {@link #standard()}'s quiet time in milliseconds when {@link #QUIET_MILLIS_PROPERTY} is not set. */
    public static final long DEFAULT_QUIET_MILLIS = 1000;
    /** {@link #DEFAULT_QUIET_MILLIS} in nanoseconds. */
    static final long DEFAULT_QUIET_NANOS = DEFAULT_QUIET_MILLIS * 1_000_000L;

    private final long quietNanos;
    private final LongSupplier totalCompilationMillis;
    private final BooleanSupplier compiling;
    private boolean waited;

    private JitWait(long quietNanos, LongSupplier totalCompilationMillis, BooleanSupplier compiling) {
        this.quietNanos = quietNanos;
        this.totalCompilationMillis = quietNanos > 0 ? totalCompilationMillis : null;
        this.compiling = compiling;
    }

    /**
     * The {@code remus bench} command's wait: {@link #untilQuiet} with the quiet time of
     * {@link #QUIET_MILLIS_PROPERTY} (default {@link #DEFAULT_QUIET_MILLIS}), {@link #off()} when that
     * is 0 or less.
     *
     * @return a wait no warm-up has used yet
     */
    public static JitWait standard() {
        long millis = Long.getLong(QUIET_MILLIS_PROPERTY, DEFAULT_QUIET_MILLIS);
        return millis <= 0 ? off() : untilQuiet(Duration.ofMillis(millis));
    }

    /**
     * A wait on this JVM's JIT: its total compilation time ({@link JitQuiet#compilationTime()}) and its
     * compile queue.
     *
     * @param quiet how long no compilation may finish before the JIT counts as quiet; zero turns the wait off
     * @return a wait no warm-up has used yet
     * @throws IllegalArgumentException when {@code quiet} is negative
     */
    public static JitWait untilQuiet(Duration quiet) {
        if (quiet.isNegative()) {
            throw new IllegalArgumentException("the JIT's quiet time must not be negative, got " + quiet);
        }
        return new JitWait(quiet.toNanos(), JitQuiet.compilationTime(), JitQuiet::compilingNow);
    }

    /** @return no wait: every warm-up runs the iterations (or the margin) asked for, and no more */
    public static JitWait off() {
        return new JitWait(0, null, () -> false);
    }

    /**
     * A wait on a JIT of the caller's (tests).
     *
     * @param quietNanos             how long no compilation may finish before the JIT counts as quiet
     * @param totalCompilationMillis the JIT's total compilation time so far; null when unknown
     * @param compiling              whether the JIT is compiling or has compilations queued now
     * @return a wait no warm-up has used yet
     */
    static JitWait of(long quietNanos, LongSupplier totalCompilationMillis, BooleanSupplier compiling) {
        return new JitWait(quietNanos, totalCompilationMillis, compiling);
    }

    /** @return whether warm-ups wait for the JIT at all */
    public boolean on() {
        return quietNanos > 0;
    }

    /** @return how long no compilation may finish before the JIT counts as quiet, in nanoseconds; 0 when off */
    long quietNanos() {
        return quietNanos;
    }

    /** @return the JIT's total compilation time in milliseconds; null when off or unknown (then always quiet) */
    LongSupplier totalCompilationMillis() {
        return totalCompilationMillis;
    }

    /** @return whether the JIT is compiling or has compilations queued now */
    BooleanSupplier compiling() {
        return compiling;
    }

    /** @return whether a warm-up of this benchmark has waited in full (found the JIT quiet, or gave up) */
    boolean waited() {
        return waited;
    }

    /** Records that a warm-up of this benchmark waited in full: later ones wait only while the JIT is compiling. */
    void markWaited() {
        waited = true;
    }

    @Override
    public String toString() {
        return on() ? "JitWait[quiet " + quietNanos / 1_000_000 + " ms" + (waited ? ", waited" : "") + "]" : "JitWait[off]";
    }
}
