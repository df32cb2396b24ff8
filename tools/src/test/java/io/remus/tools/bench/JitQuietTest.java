package io.remus.tools.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
                C2 CompilerThread0  1116       4       io.remus.tools.bench.Bandwidth::pump (657 bytes)

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
        long quietTime = JitQuiet.QUIET_NANOS;
        boolean[] compiling = {true};
        JitQuiet jit = new JitQuiet(start, () -> 42L, () -> compiling[0], false);
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
        JitQuiet jit = new JitQuiet(start, () -> 42L, () -> false, false);
        assertFalse(jit.quiet(start + 20_000_000L, 0));
        assertTrue(jit.quiet(start + 40_000_000L + JitQuiet.QUIET_NANOS, 0), "a test's wait (not the JVM's) needs no volume");
    }

    @Test
    void shouldAskTheJvmsWaitForEnoughPollsWithTheJitQuietWhenALoopPollsLessOftenThanItOperates() {
        assertTrue(JitQuiet.C2_INVOCATIONS >= 1_000, "HotSpot's thresholds: " + JitQuiet.C2_INVOCATIONS);
        long ms = 1_000_000L;
        long ops = JitQuiet.C2_OPERATIONS;
        long n = JitQuiet.C2_INVOCATIONS;
        long[] total = {42};
        JitQuiet.forgetJvmWait();
        try {
            JitQuiet jit = new JitQuiet(0, () -> total[0], () -> false, true, false);
            assertFalse(jit.quiet(20 * ms, ops, 100), "the first sample sees the total move");
            long t = 20 * ms + JitQuiet.QUIET_NANOS;
            assertFalse(jit.quiet(t, ops, 100 + n - 1), "quiet for the time, not yet for enough polls");
            total[0] = 50; // a compilation finished: the polls count from here
            assertFalse(jit.quiet(t + 20 * ms, ops, 100 + n));
            t += 20 * ms + JitQuiet.QUIET_NANOS;
            assertFalse(jit.quiet(t, ops, 100 + 2 * n - 1), "polls since the last compilation, not in all");
            assertFalse(jit.quiet(t + 20 * ms, ops - 1, 100 + 2 * n), "enough polls, too few operations");
            assertTrue(jit.quiet(t + 40 * ms, ops, 100 + 2 * n));
        } finally {
            JitQuiet.markJvmWaited(); // this test's wait was this JVM's: leave it as a finished one
        }
    }

    @Test
    void shouldEndTheJvmsWaitOnOperationsAloneWhenPollsAreNotCounted() {
        long ms = 1_000_000L;
        JitQuiet.forgetJvmWait();
        try {
            JitQuiet jit = new JitQuiet(0, () -> 42L, () -> false, true, false);
            assertFalse(jit.quiet(20 * ms, JitQuiet.C2_OPERATIONS), "the first sample sees the total move");
            assertTrue(jit.quiet(20 * ms + JitQuiet.QUIET_NANOS, JitQuiet.C2_OPERATIONS),
                    "a loop that polls once per operation: quiet for the time, enough operations");
        } finally {
            JitQuiet.markJvmWaited();
        }
    }

    @Test
    void shouldEndALaterWarmUpAtOnceWhenTheJitIsIdleWhenAsked() {
        long start = 0;
        int[] asked = {0};
        JitQuiet jit = new JitQuiet(start, () -> 42L, () -> ++asked[0] > 1, false, true);
        assertTrue(jit.quiet(start, 0), "this JVM waited before, and the JIT has nothing to do");
        assertTrue(jit.quiet(start + 1, 0));
        assertEquals(1, asked[0], "asked once");
    }

    @Test
    void shouldWaitInFullInALaterWarmUpWhenTheJitIsCompilingWhenAsked() {
        long start = 0;
        long quietTime = JitQuiet.QUIET_NANOS;
        boolean[] compiling = {true};
        long[] total = {42};
        JitQuiet jit = new JitQuiet(start, () -> total[0], () -> compiling[0], false, true);
        assertFalse(jit.quiet(start, 0), "a compilation a previous run left behind is running");
        compiling[0] = false;
        total[0] = 50; // it finished
        assertFalse(jit.quiet(start + 20_000_000L, 0));
        assertFalse(jit.quiet(start + 20_000_000L + quietTime / 2, 0), "not a whole quiet time yet");
        assertTrue(jit.quiet(start + 40_000_000L + quietTime, 0),
                "quiet, and a later wait needs no volume of operations");
    }
}
