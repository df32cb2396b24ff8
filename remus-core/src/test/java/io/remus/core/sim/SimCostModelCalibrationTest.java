package io.remus.core.sim;

import io.remus.core.ComputeThread;
import io.remus.core.testing.PublishedFigures;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calibration: each named {@link SimCostModel}, run in virtual time ({@link VirtualTimeScheduler}) on a two-node
 * {@link SimFabric}, reproduces the published figures its Javadoc cites ({@link PublishedFigures}) within 10 %, in
 * the measurements of the perftest-style microbenchmarks: READ latency (one thread, sequential 8-byte READs, mean),
 * atomic latency (one thread, sequential FETCH_AND_ADDs on one word, mean), READ bandwidth (one thread, 4 KiB READs
 * with a window of 16 in flight), the NIC's message rate (many threads of 8-byte READs, 16 in flight each), and FETCH_AND_ADD throughput of many threads with windows in flight, on one word and
 * spread over 64 words (expected: the lesser of the NIC's rate and 64 words' units). Clients run on node 1, the
 * memory lives on node 0. A figure a model does not state ({@code NaN}) is not measured. Virtual time makes every figure the same on any host; the runs take a few host
 * seconds each.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SimCostModelCalibrationTest {
    private static final long SECOND = 1_000_000_000L;
    private static final int LATENCY_OPS = 1_000;
    private static final int WINDOW = 16;
    private static final int READ_BYTES = 4096;
    private static final int BANDWIDTH_READS = 4_000;
    private static final int OPS_PER_THREAD = 400;
    private static final int WORDS = 64;
    /** A check of a wait loop in a latency run: small beside a round trip, so that polling adds little. */
    private static final long LATENCY_SPIN_NANOS = 10;

    static final List<PublishedFigures> MODELS = PublishedFigures.ALL;

    private static SimOptions fabric(SimCostModel model) {
        return SimOptions.defaults().withCostModel(model).withStraddleOffset(0);
    }

    private interface Measurement {
        /** Runs on a scheduled thread; @return the figure */
        double measure(TestCluster c) throws Exception;
    }

    private static double inVirtualTime(SimCostModel model, long spinNanos, Measurement m) {
        double[] figure = new double[1];
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1).withSpinNanos(spinNanos), () -> {
            try (TestCluster c = new TestCluster(SimFabric::new, fabric(model), 2,
                    b -> b.bufferSizePerThread(READ_BYTES * WINDOW).opsInFlightPerThread(WINDOW))) {
                figure[0] = m.measure(c);
            }
        });
        return figure[0];
    }

    /** Mean virtual nanoseconds of one 8-byte READ, one thread, one at a time. */
    static double readLatencyNanos(SimCostModel model) {
        return inVirtualTime(model, LATENCY_SPIN_NANOS, c -> {
            long word = c.block(0, 8);
            try (ComputeThread t = c.node(1).newComputeThread()) {
                t.read(word);
                long start = ThreadTime.nanoTime();
                for (int i = 0; i < LATENCY_OPS; i++) {
                    t.read(word);
                }
                return (double) (ThreadTime.nanoTime() - start) / LATENCY_OPS;
            }
        });
    }

    /** Mean virtual nanoseconds of one FETCH_AND_ADD on one word, one thread, one at a time. */
    static double atomicLatencyNanos(SimCostModel model) {
        return inVirtualTime(model, LATENCY_SPIN_NANOS, c -> {
            long word = c.block(0, 8);
            try (ComputeThread t = c.node(1).newComputeThread()) {
                t.fetchAndAdd(word, 1);
                long start = ThreadTime.nanoTime();
                for (int i = 0; i < LATENCY_OPS; i++) {
                    t.fetchAndAdd(word, 1);
                }
                double mean = (double) (ThreadTime.nanoTime() - start) / LATENCY_OPS;
                assertEquals(LATENCY_OPS + 1, t.read(word), "every increment landed");
                return mean;
            }
        });
    }

    /** Gb/s of 4 KiB READs from one thread keeping {@link #WINDOW} in flight. */
    static double readGigabitsPerSecond(SimCostModel model) {
        return inVirtualTime(model, 100, c -> {
            long block = c.block(0, READ_BYTES);
            try (ComputeThread t = c.node(1).newComputeThread()) {
                long[] inFlight = new long[WINDOW];
                long start = ThreadTime.nanoTime();
                for (int i = 0; i < BANDWIDTH_READS; i++) {
                    int slot = i % WINDOW;
                    if (i >= WINDOW) {
                        t.await(inFlight[slot]);
                    }
                    inFlight[slot] = t.readAsync(block, (long) slot * READ_BYTES, READ_BYTES, false);
                }
                for (int i = BANDWIDTH_READS - WINDOW; i < BANDWIDTH_READS; i++) {
                    t.await(inFlight[i % WINDOW]);
                }
                long took = ThreadTime.nanoTime() - start;
                return (double) BANDWIDTH_READS * READ_BYTES * 8 / took;
            }
        });
    }

    /**
     * Operations per virtual second of threads that each keep {@link #WINDOW} FETCH_AND_ADDs (or 8-byte READs) in flight
     * over {@code words} words of node 0, each thread's window on distinct words. The load offered is sized to the rate
     * expected: enough threads to keep four times {@code expected} times a round trip in flight (4 to 64), so that a model whose limit is higher than expected shows
     * it, and a wait loop's check of {@code 1e9 / expected} ns (100 to 1,000), so that slow rates need few checks.
     */
    static double opsPerSecond(SimCostModel model, boolean atomics, int words, double expected) {
        long roundTrip = atomics ? model.atomicRoundTripNanos() : model.readWriteRoundTripNanos();
        int threads = (int) Math.clamp((long) Math.ceil(4 * expected * roundTrip / 1e9 / WINDOW), 4, 64);
        long spin = Math.clamp((long) (1e9 / expected), 100, 1_000);
        return inVirtualTime(model, spin, c -> {
            long base = c.block(0, 8 * words);
            List<Thread> workers = new ArrayList<>();
            AtomicInteger ready = new AtomicInteger();
            AtomicBoolean go = new AtomicBoolean();
            for (int w = 0; w < threads; w++) {
                int first = w;
                Thread worker = ThreadTime.newThread("faa-" + w, () -> {
                    try (ComputeThread t = c.node(1).newComputeThread()) {
                        ready.incrementAndGet();
                        while (!go.get()) {
                            ThreadTime.onSpinWait("the start");
                        }
                        long[] inFlight = new long[WINDOW];
                        for (int i = 0; i < OPS_PER_THREAD; i++) {
                            int slot = i % WINDOW;
                            if (i >= WINDOW) {
                                t.await(inFlight[slot]);
                            }
                            long word = base + 8L * ((first * WINDOW + i) % words);
                            inFlight[slot] = atomics ? t.fetchAndAddAsync(word, 1, false) : t.readWordAsync(word, false);
                        }
                        for (int i = OPS_PER_THREAD - WINDOW; i < OPS_PER_THREAD; i++) {
                            t.await(inFlight[i % WINDOW]);
                        }
                    }
                });
                workers.add(worker);
                worker.start();
            }
            while (ready.get() < threads) {
                ThreadTime.onSpinWait("every worker ready");
            }
            long start = ThreadTime.nanoTime();
            go.set(true);
            for (Thread worker : workers) {
                assertTrue(ThreadTime.join(worker, 60 * SECOND), worker.getName() + " ended");
            }
            long took = ThreadTime.nanoTime() - start;
            long sum = 0;
            for (int i = 0; i < words; i++) {
                sum += c.thread(0).read(base + 8L * i);
            }
            assertEquals(atomics ? (long) threads * OPS_PER_THREAD : 0, sum, "every increment landed");
            return (double) threads * OPS_PER_THREAD * SECOND / took;
        });
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedReadLatencyWhenOneThreadReadsInVirtualTime(PublishedFigures f) {
        assertNull(PublishedFigures.offBy(f.readNanos(), readLatencyNanos(f.model()), f + " READ latency, ns"));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedAtomicLatencyWhenOneThreadAddsInVirtualTime(PublishedFigures f) {
        assertNull(PublishedFigures.offBy(f.atomicNanos(), atomicLatencyNanos(f.model()), f + " atomic latency, ns"));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedReadBandwidthWhenReadsOverlapInVirtualTime(PublishedFigures f) {
        if (!Double.isNaN(f.read4kGigabitsPerSec())) {
            assertNull(PublishedFigures.offBy(f.read4kGigabitsPerSec(), readGigabitsPerSecond(f.model()),
                    f + " 4 KiB READ bandwidth, Gb/s"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedMessageRateWhenManyThreadsRead(PublishedFigures f) {
        if (!Double.isNaN(f.readsPerSec())) {
            assertNull(PublishedFigures.offBy(f.readsPerSec(), opsPerSecond(f.model(), false, WORDS, f.readsPerSec()),
                    f + " 8-byte READs of many threads, per s"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedOneWordAtomicRateWhenManyThreadsAddToOneWord(PublishedFigures f) {
        assertNull(PublishedFigures.offBy(f.oneWordAtomicsPerSec(), opsPerSecond(f.model(), true, 1, f.oneWordAtomicsPerSec()),
                f + " FETCH_AND_ADD on one word, per s"));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("MODELS")
    void shouldReproduceThePublishedManyWordAtomicRateWhenManyThreadsAddTo64Words(PublishedFigures f) {
        double expected = f.atomicsPerSecondOn(WORDS);
        assertNull(PublishedFigures.offBy(expected, opsPerSecond(f.model(), true, WORDS, expected),
                f + " FETCH_AND_ADD on " + WORDS + " words, per s"));
    }
}
