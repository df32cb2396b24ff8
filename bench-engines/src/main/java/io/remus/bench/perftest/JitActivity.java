package io.remus.bench.perftest;

import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.util.function.LongSupplier;

/**
 * The JIT's work over a stretch of a run, for the {@code remus.bench.pollStats} diagnostic: how many
 * milliseconds of compilation finished in it, and the JVM uptimes of its edges (to line up with
 * {@code -Xlog:jit+compilation}). Control path: read at the stretch's two edges only.
 */
final class JitActivity {
    private static final LongSupplier TOTAL = JitQuiet.compilationTime();
    /**
     * Looked up once: {@link ManagementFactory}'s lookups run stream code, which the JIT compiled at every window's
     * edges, beside the measured operations (a JIT log of a latency run, docs/FINDINGS.md).
     */
    private static final RuntimeMXBean RUNTIME = ManagementFactory.getRuntimeMXBean();
    private final long compiledBefore;
    private final long uptimeBefore;

    private JitActivity(long compiledBefore, long uptimeBefore) {
        this.compiledBefore = compiledBefore;
        this.uptimeBefore = uptimeBefore;
    }

    /** @return a stretch that begins now */
    static JitActivity begin() {
        return new JitActivity(compiledMillis(), RUNTIME.getUptime());
    }

    /**
     * @param stretch what the stretch is ("run", "measured window")
     * @return e.g. "12 ms of JIT compilation finished during the run (JVM uptime 86500 to 90989 ms)", ending now
     */
    String note(String stretch) {
        return (compiledBefore < 0 ? "unknown" : (compiledMillis() - compiledBefore) + " ms of")
                + " JIT compilation finished during the " + stretch + " (JVM uptime " + uptimeBefore + " to "
                + RUNTIME.getUptime() + " ms)";
    }

    private static long compiledMillis() {
        return TOTAL == null ? -1 : TOTAL.getAsLong();
    }
}
