package io.remus.bench.perftest;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunClockTest {
    @Test
    void shouldRecordExactlyTheIterationsAfterTheWarmupWhenRunByIterations() {
        RunClock clock = RunClock.start(settings(10, 5), System.nanoTime());
        long firstMeasured = -1;
        long measured = 0;
        long i = 0;
        for (; clock.continues(i, System.nanoTime()); i++) {
            boolean m = clock.measures(i, 0, 0);
            if (m && firstMeasured < 0) {
                firstMeasured = i;
            }
            if (firstMeasured >= 0) {
                assertTrue(m, "every iteration after the first measured one is measured");
                measured++;
            }
        }
        assertEquals(10, measured);
        assertEquals(5, firstMeasured, "the warm-up ran first (no JIT wait), measuring began at " + firstMeasured);
        assertEquals(firstMeasured + 10, i);
    }

    @Test
    void shouldMeasureFromTheFirstIterationWhenThereIsNoWarmup() {
        RunClock clock = RunClock.start(settings(3, 0), System.nanoTime());
        long now = System.nanoTime();
        for (int i = 0; i < 3; i++) {
            assertTrue(clock.continues(i, now));
            assertTrue(clock.measures(i, 0, 0));
        }
        assertFalse(clock.continues(3, now));
    }

    @Test
    void shouldSayHowTheWarmupEndsInTheReportNote() {
        JitWait wait = JitWait.untilQuiet(Duration.ofMillis(700));
        String iterations = JitQuiet.describe(wait, 100);
        assertTrue(iterations.startsWith("warm-up: at least 100 iterations"), iterations);
        assertTrue(iterations.contains("no JIT compilation finished for 700 ms"), iterations);
        String margin = JitQuiet.describeMargin(wait, Duration.ofMillis(1500));
        assertTrue(margin.startsWith("warm-up: the leading margin of 1.5 s"), margin);
        assertTrue(margin.contains("700 ms"), margin);
        String off = JitQuiet.describeMargin(JitWait.off(), Duration.ofMillis(1500));
        assertTrue(off.contains("the wait for a quiet JIT is off"), off);
        String rehearsals = Bandwidth.describeDurationWarmUp(wait, Duration.ofMillis(1500));
        assertTrue(rehearsals.startsWith("warm-up: rehearsal rounds of 1 ms margin, 10 ms window"), rehearsals);
        assertTrue(rehearsals.contains("then the leading margin of 1.5 s"), rehearsals);
    }

    @Test
    void shouldBeginTheDurationWindowWhenTheMarginHasPassedAndTheJitIsQuiet() {
        long start = 5_000_000_000L;
        long[] now = {start};
        // the JIT compiles for the first 3 s, then is quiet: the window begins 1 s later
        JitQuiet jit = new JitQuiet(start, () -> now[0] - start < 3_000_000_000L ? now[0] : 42L);
        Window w = runByDuration(start, now, jit);
        assertTrue(w.first - start >= 3_990_000_000L && w.first - start <= 4_020_000_000L,
                "the window began " + (w.first - start) + " ns after the start, not about 4 s");
        assertEquals(200 * MS, w.last - w.first, "the window is -D less both margins");
        assertEquals(100 * MS, w.end - w.last, "the trailing margin runs after the window and is not measured");
    }

    @Test
    void shouldBeginTheDurationWindowAfterTheMarginWhenTheJitWasQuietAlready() {
        long start = 5_000_000_000L;
        long[] now = {start};
        JitQuiet quiet = new JitQuiet(start, JitWait.of(JitWait.DEFAULT_QUIET_NANOS, null, () -> false));
        Window w = runByDuration(start, now, quiet);
        assertEquals(100 * MS, w.first - start, "the leading margin is not measured");
        assertEquals(200 * MS, w.last - w.first);
        assertEquals(100 * MS, w.end - w.last);
    }

    @Test
    void shouldStopWaitingForTheJitAfterAMinuteInDurationMode() {
        long start = 5_000_000_000L;
        long[] now = {start};
        JitQuiet busy = new JitQuiet(start, () -> now[0]);
        Window w = runByDuration(start, now, busy);
        assertTrue(w.first - start >= JitQuiet.MOST_NANOS && w.first - start <= JitQuiet.MOST_NANOS + 20 * MS,
                "the window began " + (w.first - start) + " ns after the start");
        assertEquals(200 * MS, w.last - w.first);
    }

    @Test
    void shouldRunARehearsalAsADurationRunThatEndsItsMarginOnTime() {
        long start = 5_000_000_000L;
        long[] now = {start};
        Window w = run(RunClock.rehearsal(start, 100 * MS, 200 * MS), start, now);
        assertEquals(100 * MS, w.first - start, "no JIT wait: the leading margin ends on time");
        assertEquals(200 * MS, w.last - w.first);
        assertEquals(100 * MS, w.end - w.last);
    }

    @Test
    void shouldEndADurationRunsMarginOnTimeWithoutAJitWait() {
        long start = 5_000_000_000L;
        long[] now = {start};
        Window w = runByDuration(start, now, null);
        assertEquals(100 * MS, w.first - start);
        assertEquals(200 * MS, w.last - w.first);
    }

    private static final long MS = 1_000_000L;

    private record Window(long first, long last, long end) {
    }

    /** Runs a 400 ms duration-mode size with 100 ms margins on a clock that moves 1 ms per operation. */
    private static Window runByDuration(long start, long[] now, JitQuiet jit) {
        return run(RunClock.start(durationSettings(Duration.ofMillis(400), Duration.ofMillis(100)), start, jit), start, now);
    }

    /** Runs a duration-mode clock of 100 ms margins and a 200 ms window on a clock that moves 1 ms per operation. */
    private static Window run(RunClock clock, long start, long[] now) {
        assertFalse(clock.inWindow(start + 150 * MS), "no window before the warm-up ended");
        long first = -1;
        long last = -1;
        long i = 0;
        while (clock.continues(i, now[0])) {
            long t0 = now[0];
            now[0] += MS;
            if (clock.measures(i, t0, now[0])) {
                if (first < 0) {
                    first = t0;
                }
                assertEquals(last < 0 ? t0 : last, t0, "measured samples follow each other without a gap");
                last = now[0];
            } else {
                assertTrue(first < 0 || t0 >= last, "nothing in the window goes unmeasured");
            }
            i++;
            assertTrue(i < 1_000_000, "a duration run ends");
        }
        assertTrue(first >= 0, "something was measured");
        assertEquals(200 * MS, clock.windowNanos());
        return new Window(first, last, now[0]);
    }

    private static BenchSettings durationSettings(Duration duration, Duration margin) {
        return new BenchSettings(BenchTest.READ_LAT, List.of(8), 1000, 100, duration, margin,
                1, 1, 1, 1, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10));
    }

    private static BenchSettings settings(long iterations, long warmup) {
        return new BenchSettings(BenchTest.READ_LAT, List.of(8), iterations, warmup, null, Duration.ofSeconds(2),
                1, 1, 1, 1, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10), JitWait.off());
    }
}
