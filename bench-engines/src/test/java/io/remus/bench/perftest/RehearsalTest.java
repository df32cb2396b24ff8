package io.remus.bench.perftest;

import io.remus.bench.stats.LatencyRecorder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The latency tests' warm-up in rehearsal rounds ({@link TimedLoop#rehearse}) and the clocks it uses. */
class RehearsalTest {
    private static final long ROUND = TimedLoop.ROUND_WARMUP + TimedLoop.ROUND_MEASURED;

    @AfterEach
    void noMarks() {
        WindowMarks.use(null);
    }

    @Test
    void shouldRunWholeRoundsAndEndOnTheWarmupAskedForWhenTheJitIsQuiet() {
        List<Long> rounds = new ArrayList<>();
        JitQuiet quiet = new JitQuiet(0, JitWait.of(JitWait.DEFAULT_QUIET_NANOS, null, () -> false)); // cannot tell: always quiet
        TimedLoop.rehearse(settings(2 * ROUND + 10), LatencyRecorder.withoutIntervals(), quiet,
                (clock, recorder) -> {
                    long n = drive(clock);
                    rounds.add(n);
                    return n;
                });
        assertEquals(List.of(ROUND, ROUND, 10L), rounds, "two whole rounds, then the 10 iterations left");
    }

    @Test
    void shouldGoOnWithWholeRoundsWhileTheJitIsCompiling() {
        boolean[] compiling = {true};
        List<Long> rounds = new ArrayList<>();
        // a later warm-up of a benchmark that finds the JIT compiling when it asks: the full wait from there
        JitQuiet jit = new JitQuiet(System.nanoTime(), () -> 42L, () -> compiling[0], true);
        TimedLoop.rehearse(settings(10, 2 * ROUND), LatencyRecorder.withoutIntervals(), jit, (clock, recorder) -> {
            long n = drive(clock);
            rounds.add(n);
            compiling[0] = rounds.size() < 3;
            return n;
        });
        assertTrue(rounds.size() > 3, "rounds until the JIT was quiet: " + rounds.size());
        assertEquals(10L, rounds.get(0), "the warm-up asked for first");
        assertEquals(ROUND, rounds.get(1), "then whole rounds");
    }

    @Test
    void shouldRecordEveryRoundIntoAFreshRecorderAndMarkNoWindowOfItsOwn() {
        List<String> marks = new ArrayList<>();
        WindowMarks.use(marks::add);
        LatencyRecorder measured = LatencyRecorder.withoutIntervals();
        List<LatencyRecorder> used = new ArrayList<>();
        TimedLoop.rehearse(settings(3 * ROUND), measured, new JitQuiet(0, JitWait.of(JitWait.DEFAULT_QUIET_NANOS, null, () -> false)), (clock, recorder) -> {
            used.add(recorder);
            long n = drive(clock);
            return n;
        });
        assertEquals(3, used.size());
        for (LatencyRecorder r : used) {
            assertNotSame(measured, r, "a round records into a throwaway recorder");
        }
        assertEquals(3, used.stream().distinct().count(), "a fresh one per round");
        assertTrue(marks.isEmpty(), "rounds mark no window: " + marks);
        assertEquals(0, measured.histogram().getTotalCount(), "nothing reached the measured recorder");
    }

    @Test
    void shouldSplitARoundIntoUnrecordedAndRecordedIterationsAsTheMeasuredRunRecords() {
        RunClock round = RunClock.round(System.nanoTime(), 3, 5);
        assertTrue(round.rehearsal());
        long now = System.nanoTime();
        int i = 0;
        for (; round.continues(i, now); i++) {
            assertEquals(i < 3 ? 0 : 1, round.measuredIndex(i, now, now), "iteration " + i);
        }
        assertEquals(8, i);
    }

    @Test
    void shouldMeasureEveryIterationAndOpenTheWindowAtOnceWhenTheRunWasRehearsed() {
        List<String> marks = new ArrayList<>();
        WindowMarks.use(marks::add);
        RunClock clock = RunClock.measuredOnly(settings(20), System.nanoTime());
        assertFalse(clock.rehearsal());
        assertEquals(List.of("begin"), marks, "the window opens as the clock starts");
        long now = System.nanoTime();
        int i = 0;
        for (; clock.continues(i, now); i++) {
            assertEquals(1, clock.measuredIndex(i, now, now));
        }
        assertEquals(300, i, "the iterations asked for, no warm-up of its own");
        assertEquals(0, clock.measuredFrom());
    }

    @Test
    void shouldSayHowARehearsedLatencyTestWarmsUp() {
        String note = RoundTripLatency.describeWarmUp(settings(20));
        assertTrue(note.startsWith("warm-up: rehearsal rounds of the whole loop (up to 256 + 4196 iterations"), note);
        assertTrue(note.contains("at least 20 iterations per size"), note);
        assertTrue(note.endsWith("then every iteration is measured"), note);
    }

    /** Runs a clock's loop without operations; returns its iterations. */
    private static long drive(RunClock clock) {
        long now = System.nanoTime();
        long i = 0;
        while (clock.continues(i, now)) {
            i++;
        }
        return i;
    }

    @Test
    void shouldKeepRoundsWithinTheIterationsAskedForWhenTheyAreFewerThanARound() {
        List<Long> rounds = new ArrayList<>();
        boolean[] compiling = {true};
        JitQuiet jit = new JitQuiet(System.nanoTime(), () -> 42L, () -> compiling[0], true);
        TimedLoop.rehearse(settings(1, 10), LatencyRecorder.withoutIntervals(), jit, (clock, recorder) -> {
            long n = drive(clock);
            rounds.add(n);
            compiling[0] = rounds.size() < 4;
            return n;
        });
        assertEquals(1L, rounds.get(0), "the warm-up asked for first");
        assertTrue(rounds.size() > 2, "rounds until the JIT was quiet: " + rounds);
        assertEquals(10L, rounds.get(1), "a round of -n 10, not of " + ROUND + " (huge messages would not end)");
    }

    private static BenchSettings settings(long warmup) {
        return settings(warmup, 300);
    }

    private static BenchSettings settings(long warmup, long iterations) {
        return new BenchSettings(BenchTest.ATOMIC_LAT, List.of(8), iterations, warmup, null, null, 1, 1, 16,
                1, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10));
    }
}
