package io.remus.bench.perftest;

import io.remus.bench.engines.SimTime;
import io.remus.bench.perftest.sim.SimBenchTransport;
import io.remus.bench.stats.BandwidthSummary;
import io.remus.core.testing.PublishedFigures;
import io.remus.core.sim.SimCostModel;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Validation of the tool's microbenchmarks against the cost models' published figures: for each calibrated preset
 * ({@link PublishedFigures}, the figures remus-core's {@code SimCostModelCalibrationTest} checks on the fabric), the
 * perftest-style engines ({@link BenchRunner#report}, as {@code remus bench} runs them, on a {@link SimBenchTransport})
 * run in virtual time ({@link SimTime#virtual}) and reproduce within {@link PublishedFigures#TOLERANCE} the READ
 * latency ({@code read-lat}, mean), the atomic latency ({@code atomic-lat}, mean), 4 KiB READ bandwidth
 * ({@code read-bw -s 4096}) and FETCH_AND_ADD throughput on one word and on 64 words ({@code atomic-bw --words 1} and
 * {@code --words 64}). The settings are the tool's defaults ({@link BenchFlags#settings}) with the flags named; a
 * figure a model does not state ({@code NaN}) is not measured. The figures are virtual time, the same on any host.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MicrobenchCalibrationVirtualTimeTest {
    private static final long SEED = 1;
    private static final int WORDS = 64;
    /** Atomic bandwidth: QPs of {@value #ATOMIC_DEPTH} in flight, enough to keep 64 words' units busy on connectx6. */
    private static final int ATOMIC_QPS = 8;
    private static final int ATOMIC_DEPTH = 128;

    static final List<PublishedFigures> MODELS = PublishedFigures.ALL;

    /** The settings of {@code remus bench <test> -s size -n n [-q qps] [-t depth]}, the rest the tool's defaults. */
    static BenchSettings settings(BenchTest test, int size, long n, int qps, Integer depth) {
        return new BenchFlags(test, size, false, 1, n, null, null, null, depth, qps, null, null, 512, 14, null, 1,
                null, AtomicType.FETCH_AND_ADD, 10).settings(new ArrayList<>());
    }

    /** Runs {@code s} as the tool does with {@code --fabric sim --sim-cost model --sim-time virtual --seed 1}. */
    static BenchReport run(SimCostModel model, BenchSettings s) {
        try {
            return SimTime.virtual(model, SEED).call(() -> {
                List<String> notes = new ArrayList<>();
                try (SimBenchTransport t = SimBenchTransport.forRun(s, 0, model, 512, notes)) {
                    return BenchRunner.report(t, s, new ProgressLine(new PrintWriter(new StringWriter()), false), null,
                            notes, false);
                }
            });
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** {@return the mean latency in nanoseconds of {@code test} on 8 bytes, 1,000 iterations} */
    static double meanLatencyNanos(SimCostModel model, BenchTest test) {
        BenchReport r = run(model, settings(test, 8, 1_000, 1, null));
        assertTrue(r.notes().contains(BenchRunner.VIRTUAL_WARM_UP), "no warm-up in virtual time: " + r.notes());
        assertEquals(0, r.settings().warmupIterations());
        assertEquals(1_000, r.latency().getFirst().summary().count(), "every iteration measured");
        return r.latency().getFirst().summary().mean();
    }

    /** {@return Gb/s of {@code remus bench read-bw -s 4096 -n 5000}} */
    static double read4kGigabitsPerSecond(SimCostModel model) {
        return run(model, settings(BenchTest.READ_BW, 4096, 5_000, 1, null)).bandwidth().getFirst()
                .averageGbitsPerSecond();
    }

    /** {@return FETCH_AND_ADDs per second of {@code remus bench atomic-bw -q 8 -t 128 -n 5000 --words words}} */
    static double atomicsPerSecond(SimCostModel model, int words) {
        BandwidthSummary b = run(model, settings(BenchTest.ATOMIC_BW, 8, 5_000, ATOMIC_QPS, ATOMIC_DEPTH)
                .withAtomicWords(words)).bandwidth().getFirst();
        assertEquals(5_000L * ATOMIC_QPS, b.iterations(), "every atomic completed");
        return b.messagesPerSecond();
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedReadLatencyWhenReadLatRunsInVirtualTime(PublishedFigures f) {
        assertNull(PublishedFigures.offBy(f.readNanos(), meanLatencyNanos(f.model(), BenchTest.READ_LAT),
                f + " bench read-lat, mean ns"));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedAtomicLatencyWhenAtomicLatRunsInVirtualTime(PublishedFigures f) {
        assertNull(PublishedFigures.offBy(f.atomicNanos(), meanLatencyNanos(f.model(), BenchTest.ATOMIC_LAT),
                f + " bench atomic-lat, mean ns"));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedReadBandwidthWhenReadBwRunsInVirtualTime(PublishedFigures f) {
        if (!Double.isNaN(f.read4kGigabitsPerSec())) {
            assertNull(PublishedFigures.offBy(f.read4kGigabitsPerSec(), read4kGigabitsPerSecond(f.model()),
                    f + " bench read-bw -s 4096, Gb/s"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedOneWordAtomicRateWhenAtomicBwAddsToOneWord(PublishedFigures f) {
        assertNull(PublishedFigures.offBy(f.oneWordAtomicsPerSec(), atomicsPerSecond(f.model(), 1),
                f + " bench atomic-bw --words 1, per s"));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedManyWordAtomicRateWhenAtomicBwAddsTo64Words(PublishedFigures f) {
        assertNull(PublishedFigures.offBy(f.atomicsPerSecondOn(WORDS), atomicsPerSecond(f.model(), WORDS),
                f + " bench atomic-bw --words " + WORDS + ", per s"));
    }
}
