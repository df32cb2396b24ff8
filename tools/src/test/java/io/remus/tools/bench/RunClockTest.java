package io.remus.tools.bench;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunClockTest {
    @Test
    void shouldRecordExactlyTheIterationsAfterAtLeastTheWarmupWhenRunByIterations() {
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
        assertTrue(firstMeasured >= 5, "at least the warm-up ran first, measuring began at " + firstMeasured);
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
        assertTrue(JitQuiet.describe(100).startsWith("warm-up: "), JitQuiet.describe(100));
        assertTrue(JitQuiet.describe(100).contains("100 iterations"), JitQuiet.describe(100));
    }

    private static BenchSettings settings(long iterations, long warmup) {
        return new BenchSettings(BenchTest.READ_LAT, List.of(8), iterations, warmup, null, Duration.ofSeconds(2),
                1, 1, 1, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10));
    }
}
