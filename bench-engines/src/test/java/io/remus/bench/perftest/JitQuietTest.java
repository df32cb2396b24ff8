package io.remus.bench.perftest;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitQuietTest {
    private static final String IDLE = """
            Current compiles:\s

            C1 compile queue:
            Empty

            C2 compile queue:
            Empty
            """;

    @Test
    void shouldSeeNothingCompilingWhenEverySectionIsEmpty() {
        assertFalse(JitQuiet.compiling(IDLE));
        assertFalse(JitQuiet.compiling(""));
    }

    @Test
    void shouldSeeACompilationWhenOneIsRunning() {
        assertTrue(JitQuiet.compiling("""
                Current compiles:\s
                C2 CompilerThread0  1116       4       io.remus.bench.perftest.Bandwidth::pump (657 bytes)

                C1 compile queue:
                Empty

                C2 compile queue:
                Empty
                """));
    }

    @Test
    void shouldSeeACompilationWhenOneIsQueued() {
        assertTrue(JitQuiet.compiling("""
                Current compiles:\s

                C1 compile queue:
                1792       2       java.lang.classfile.Interfaces::of (9 bytes)

                C2 compile queue:
                Empty
                """));
    }

    @Test
    void shouldWaitAnotherQuietTimeWhenTheJitIsStillCompiling() {
        long start = 0;
        long quietTime = JitWait.DEFAULT_QUIET_NANOS;
        boolean[] compiling = {true};
        JitQuiet jit = new JitQuiet(start, () -> 42L, () -> compiling[0]);
        assertFalse(jit.quiet(start + 20_000_000L), "the first sample sees the total move from unknown");
        assertFalse(jit.quiet(start + 20_000_000L + quietTime), "the total stood still, but a compilation runs");
        compiling[0] = false;
        assertFalse(jit.quiet(start + 20_000_000L + quietTime + 20_000_000L), "a whole quiet time after it was asked");
        assertTrue(jit.quiet(start + 40_000_000L + 2 * quietTime));
    }

    @Test
    void shouldReadThisJvmsCompileQueueWhenRunOnHotSpot() {
        String queue = JitQuiet.compilerQueue();
        assertNotNull(queue, "HotSpot answers Compiler.queue through its DiagnosticCommand MBean");
        assertTrue(queue.contains("Current compiles:") && queue.contains("compile queue:"), queue);
    }

    @Test
    void shouldAskForEnoughOperationsToReachC2WhenThisWarmUpWaitsForTheJvm() {
        assertTrue(JitQuiet.C2_OPERATIONS >= 10_000, "HotSpot's thresholds: " + JitQuiet.C2_OPERATIONS);
        long start = 0;
        JitQuiet jit = new JitQuiet(start, () -> 42L, () -> false);
        assertFalse(jit.quiet(start + 20_000_000L, 0));
        assertTrue(jit.quiet(start + 40_000_000L + JitWait.DEFAULT_QUIET_NANOS, 0), "a wait that is not a benchmark's needs no volume");
    }

    @Test
    void shouldAskTheJvmsWaitForEnoughPollsWithTheJitQuietWhenALoopPollsLessOftenThanItOperates() {
        assertTrue(JitQuiet.C2_INVOCATIONS >= 1_000, "HotSpot's thresholds: " + JitQuiet.C2_INVOCATIONS);
        long ms = 1_000_000L;
        long ops = JitQuiet.C2_OPERATIONS;
        long n = JitQuiet.C2_INVOCATIONS;
        long[] total = {42};
        JitWait benchmark = JitWait.of(JitWait.DEFAULT_QUIET_NANOS, () -> total[0], () -> false);
        JitQuiet jit = new JitQuiet(0, benchmark);
        assertFalse(jit.quiet(20 * ms, ops, 100), "the first sample sees the total move");
        long t = 20 * ms + JitWait.DEFAULT_QUIET_NANOS;
        assertFalse(jit.quiet(t, ops, 100 + n - 1), "quiet for the time, not yet for enough polls");
        assertFalse(benchmark.waited());
        total[0] = 50; // a compilation finished: the polls count from here
        assertFalse(jit.quiet(t + 20 * ms, ops, 100 + n));
        t += 20 * ms + JitWait.DEFAULT_QUIET_NANOS;
        assertFalse(jit.quiet(t, ops, 100 + 2 * n - 1), "polls since the last compilation, not in all");
        assertFalse(jit.quiet(t + 20 * ms, ops - 1, 100 + 2 * n), "enough polls, too few operations");
        assertTrue(jit.quiet(t + 40 * ms, ops, 100 + 2 * n));
        assertTrue(jit.waitedForTheBenchmark());
        assertTrue(benchmark.waited(), "the benchmark's later warm-ups wait only while the JIT compiles");
    }

    @Test
    void shouldEndTheJvmsWaitOnOperationsAloneWhenPollsAreNotCounted() {
        long ms = 1_000_000L;
        JitQuiet jit = new JitQuiet(0, JitWait.of(JitWait.DEFAULT_QUIET_NANOS, () -> 42L, () -> false));
        assertFalse(jit.quiet(20 * ms, JitQuiet.C2_OPERATIONS), "the first sample sees the total move");
        assertTrue(jit.quiet(20 * ms + JitWait.DEFAULT_QUIET_NANOS, JitQuiet.C2_OPERATIONS),
                "a loop that polls once per operation: quiet for the time, enough operations");
    }

    @Test
    void shouldEndALaterWarmUpAtOnceWhenTheJitIsIdleWhenAsked() {
        long start = 0;
        int[] asked = {0};
        JitQuiet jit = new JitQuiet(start, () -> 42L, () -> ++asked[0] > 1, true);
        assertTrue(jit.quiet(start, 0), "this JVM waited before, and the JIT has nothing to do");
        assertTrue(jit.quiet(start + 1, 0));
        assertEquals(1, asked[0], "asked once");
    }

    @Test
    void shouldWaitInFullInALaterWarmUpWhenTheJitIsCompilingWhenAsked() {
        long start = 0;
        long quietTime = JitWait.DEFAULT_QUIET_NANOS;
        boolean[] compiling = {true};
        long[] total = {42};
        JitQuiet jit = new JitQuiet(start, () -> total[0], () -> compiling[0], true);
        assertFalse(jit.quiet(start, 0), "a compilation a previous run left behind is running");
        compiling[0] = false;
        total[0] = 50; // it finished
        assertFalse(jit.quiet(start + 20_000_000L, 0));
        assertFalse(jit.quiet(start + 20_000_000L + quietTime / 2, 0), "not a whole quiet time yet");
        assertTrue(jit.quiet(start + 40_000_000L + quietTime, 0),
                "quiet, and a later wait needs no volume of operations");
    }

    @Test
    void shouldWaitAsALaterWarmUpWhenAnEarlierWarmUpOfTheBenchmarkWaitedInFull() {
        int[] asked = {0};
        JitWait benchmark = JitWait.of(JitWait.DEFAULT_QUIET_NANOS, () -> 42L, () -> ++asked[0] > 1);
        JitQuiet first = new JitQuiet(0, benchmark);
        first.giveUp();
        assertTrue(benchmark.waited());
        JitQuiet later = new JitQuiet(0, benchmark);
        assertTrue(later.quiet(0, 0), "a later warm-up: the JIT has nothing to do when asked, no volume needed");
        assertEquals(1, asked[0], "asked once");
        assertFalse(later.waitedForTheBenchmark());
    }

    @Test
    void shouldNotWaitWhenTheWaitIsOff() {
        JitWait off = JitWait.off();
        assertFalse(off.on());
        JitQuiet jit = new JitQuiet(0, off);
        assertTrue(jit.quiet(0, 0), "no sample, no volume: the warm-up ends on its iterations");
        assertFalse(jit.waitedForTheBenchmark());
        assertTrue(JitQuiet.describe(off, 100).contains("the wait for a quiet JIT is off"), JitQuiet.describe(off, 100));
    }

    @Test
    void shouldTakeTheToolsQuietTimeFromItsPropertyOrTheDefault() {
        JitWait standard = JitWait.standard();
        long millis = Long.getLong(JitWait.QUIET_MILLIS_PROPERTY, JitWait.DEFAULT_QUIET_MILLIS);
        assertEquals(millis > 0, standard.on());
        assertEquals(Math.max(0, millis) * 1_000_000L, standard.quietNanos());
        assertFalse(standard.waited(), "a fresh wait: nothing of an earlier benchmark in it");
    }

    @Test
    void shouldRefuseANegativeQuietTime() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JitWait.untilQuiet(java.time.Duration.ofMillis(-1)));
        assertTrue(e.getMessage().contains("-0.001"), e.getMessage());
    }
}
