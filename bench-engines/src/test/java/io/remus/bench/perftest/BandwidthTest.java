package io.remus.bench.perftest;

import io.remus.core.sim.SimOptions;
import io.remus.bench.perftest.sim.SimBenchTransport;
import io.remus.bench.stats.BandwidthSummary;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Bandwidth} on the sim fabric, watched through a connection that counts what it posts and polls. */
class BandwidthTest {
    private static final int QPS = 3;
    private static final int DEPTH = 8;

    private static ProgressLine quiet() {
        return new ProgressLine(new PrintWriter(new StringWriter()), false);
    }

    private static BenchSettings fetchAndAdd(long iterations, long warmup, Duration duration, int cqModeration) {
        Duration margin = duration == null ? null : duration.dividedBy(4);
        return new BenchSettings(BenchTest.ATOMIC_BW, List.of(8), iterations, warmup, duration, margin, DEPTH, QPS,
                4, cqModeration, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10), JitWait.off());
    }

    @Test
    void shouldSignalOneRequestInQAndTheLastWhenCompletionsAreModerated() {
        BenchSettings s = fetchAndAdd(1000, 100, null, 3);
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            BandwidthSummary result = Bandwidth.run(c, s, 8, quiet());
            assertEquals(3 * 1000, result.iterations());
            try (BenchConnection server = t.inProcessServer()) {
                for (int q = 0; q < QPS; q++) {
                    assertEquals(1100, wordsOf(server, q), "QP " + q + "'s words");
                }
            }
            for (int q = 0; q < QPS; q++) {
                // 100 warm-up requests: 33 signalled every third, and the 100th; 1000 measured: 333 and the 1000th
                assertEquals(1100, c.posted[q], "QP " + q);
                assertEquals(34 + 334, c.signaled[q], "QP " + q);
                assertEquals(1100, c.covered[q], "QP " + q + ": the completions' counts add up to every request");
            }
            assertTrue(c.mostInFlight <= DEPTH, "most in flight on one QP: " + c.mostInFlight);
        }
    }

    @Test
    void shouldSignalEveryRequestWhenModerationIsOne() {
        BenchSettings s = fetchAndAdd(200, 0, null, 1);
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            assertEquals(600, Bandwidth.run(c, s, 8, quiet()).iterations());
            for (int q = 0; q < QPS; q++) {
                assertEquals(200, c.signaled[q]);
                assertEquals(200, c.covered[q]);
            }
        }
    }

    @Test
    void shouldCloseEveryQueuePairsUnsignalledTailWhenADurationRunEnds() {
        BenchSettings s = fetchAndAdd(1, 0, Duration.ofMillis(400), 7);
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            BandwidthSummary result = Bandwidth.run(c, s, 8, quiet());
            assertTrue(result.iterations() > 0);
            for (int q = 0; q < QPS; q++) {
                assertEquals(c.posted[q], c.covered[q], "QP " + q + ": every request completed, none left behind");
                assertTrue(c.signaled[q] < c.posted[q], "QP " + q + " moderated");
            }
            try (BenchConnection server = t.inProcessServer()) {
                for (int q = 0; q < QPS; q++) {
                    assertEquals(c.posted[q], wordsOf(server, q));
                }
            }
        }
    }

    @Test
    void shouldWarmUpInRoundsUntilTheJitIsQuietWhenIterationsAreGiven() {
        BenchSettings s = fetchAndAdd(100, 50, null, 1);
        long[] compiled = {0};
        int[] asked = {0};
        // the JIT finishes a compilation at each of the first samples, then nothing more
        JitQuiet jit = new JitQuiet(System.nanoTime(), () -> ++asked[0] <= 3 ? ++compiled[0] : compiled[0]);
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            assertEquals(3 * 100, Bandwidth.run(c, s, 8, quiet(), jit).iterations());
            long warmup = c.posted[0] - 100;
            assertTrue(warmup >= 2 * 50, "warm-up rounds went on while the JIT compiled: " + warmup);
            assertEquals(0, warmup % 50, "whole rounds of the warm-up's iterations: " + warmup);
        }
    }

    @Test
    void shouldWarmUpOnceWhenTheJitIsAlreadyQuiet() {
        BenchSettings s = fetchAndAdd(100, 50, null, 1);
        JitQuiet unknown = new JitQuiet(System.nanoTime(), JitWait.of(JitWait.DEFAULT_QUIET_NANOS, null, () -> false));
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            Bandwidth.run(c, s, 8, quiet(), unknown);
            assertEquals(150, c.posted[0]);
        }
    }

    @Test
    void shouldMarkTheMeasuredRequestsOnlyWhenWindowMarksAreOn() {
        BenchSettings s = fetchAndAdd(100, 50, null, 1);
        JitQuiet unknown = new JitQuiet(System.nanoTime(), JitWait.of(JitWait.DEFAULT_QUIET_NANOS, null, () -> false));
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            List<String> marks = new ArrayList<>();
            WindowMarks.use(line -> marks.add(line + " " + c.posted[0] + " " + c.covered[0]));
            Bandwidth.run(c, s, 8, quiet(), unknown);
            // the warm-up's 50 requests completed before the window; its 100 all completed inside it
            assertEquals(List.of("begin 50 50", "end 150 150"), marks);
        } finally {
            WindowMarks.use(null);
        }
    }

    @Test
    void shouldRehearseADurationRunUntilTheJitIsQuietAndMarkOnlyTheMeasuredWindow() {
        BenchSettings s = fetchAndAdd(1, 0, Duration.ofMillis(400), 7);
        long[] compiled = {0};
        int[] asked = {0};
        // the JIT finishes a compilation at each of the first samples, then nothing more
        JitQuiet jit = new JitQuiet(System.nanoTime(), () -> ++asked[0] <= 3 ? ++compiled[0] : compiled[0]);
        long start = System.nanoTime();
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            List<String> marks = new ArrayList<>();
            List<Long> markedAt = new ArrayList<>();
            WindowMarks.use(line -> {
                marks.add(line);
                markedAt.add(System.nanoTime());
            });
            BandwidthSummary result = Bandwidth.run(c, s, 8, quiet(), jit);
            assertTrue(result.iterations() > 0);
            assertTrue(asked[0] > 3, "the rehearsals asked the JIT until it was quiet: " + asked[0]);
            // the rehearsals' own windows were not marked: the one window begins after the JIT was quiet
            assertEquals(List.of("begin", "end"), marks);
            long quietFor = JitWait.DEFAULT_QUIET_NANOS;
            assertTrue(markedAt.get(0) - start >= quietFor, "window began " + (markedAt.get(0) - start) + " ns in");
            for (int q = 0; q < QPS; q++) {
                assertEquals(c.posted[q], c.covered[q], "QP " + q + ": every request completed, rehearsals' too");
            }
        } finally {
            WindowMarks.use(null);
        }
    }

    /** @return the sum of the 8-byte words in QP {@code q}'s part of the lower half of a side's buffer */
    private static long wordsOf(BenchConnection side, int q) {
        long part = Bandwidth.queuePairRegion(side, 8);
        long sum = 0;
        for (long at = q * part; at < (q + 1) * part; at += 8) {
            sum += side.buffer().get(ValueLayout.JAVA_LONG, at);
        }
        return sum;
    }

    @Test
    void shouldCycleEachQueuePairsAddressesThroughAPageInCacheLinesAsPerftestDoes() {
        BenchSettings s = fetchAndAdd(200, 0, null, 1);
        long buffer = Bandwidth.bufferBytes(8, QPS);
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), buffer, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            Bandwidth.run(c, s, 8, quiet());
            for (int q = 0; q < QPS; q++) {
                for (int k = 0; k < 200; k++) {
                    long expected = q * 4096L + (k % 64) * 64L;
                    assertEquals(expected, c.remoteOffsets[q].get(k), "QP " + q + ", request " + k);
                    assertEquals(buffer / 2 + expected, (long) c.localOffsets[q].get(k), "QP " + q + ", request " + k);
                }
            }
        }
    }

    @Test
    void shouldKeepEachQueuePairsAddressesWhenAMessageIsOverHalfAPage() {
        BenchSettings s = new BenchSettings(BenchTest.WRITE_BW, List.of(3000), 50, 0, null, null, DEPTH, QPS,
                4, 1, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10));
        long buffer = Bandwidth.bufferBytes(3000, QPS);
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), buffer, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            Bandwidth.run(c, s, 3000, quiet());
            for (int q = 0; q < QPS; q++) {
                assertEquals(List.of(q * 4096L), c.remoteOffsets[q].stream().distinct().toList(), "QP " + q);
                assertEquals(List.of(buffer / 2 + q * 4096L), c.localOffsets[q].stream().distinct().toList(), "QP " + q);
            }
        }
    }

    @Test
    void shouldEndTheJvmsWaitWithOneRequestRoundsSoThatTheRunLoopReachesC2InTheWarmUp() {
        // rounds of 1,000 requests per QP, one in 4 signalled: 4 x signalled = posted, except for the
        // one-request rounds, each signalled: 4 x signalled - posted = 3 x their number
        JitWait benchmark = JitWait.of(JitWait.DEFAULT_QUIET_NANOS, () -> 42L, () -> false);
        BenchSettings s = fetchAndAdd(500, 1000, null, 4).withJitWait(benchmark);
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            JitQuiet first = new JitQuiet(System.nanoTime(), benchmark);
            Bandwidth.run(c, s, 8, quiet(), first);
            assertTrue(first.waitedForTheBenchmark());
            for (int q = 0; q < QPS; q++) {
                assertEquals(3 * JitQuiet.C2_INVOCATIONS, 4 * c.signaled[q] - c.posted[q], "QP " + q);
            }
        }
    }

    @Test
    void shouldRunNoOneRequestRoundsWhenTheBenchmarkHasWaitedBefore() {
        int[] asked = {0};
        JitWait benchmark = JitWait.of(JitWait.DEFAULT_QUIET_NANOS, () -> 42L, () -> ++asked[0] < 0);
        new JitQuiet(0, benchmark).giveUp(); // an earlier size's warm-up waited in full
        BenchSettings s = fetchAndAdd(500, 1000, null, 4).withJitWait(benchmark);
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, QPS, DEPTH);
             Counting c = new Counting(t.client(), QPS)) {
            Bandwidth.run(c, s, 8, quiet());
            for (int q = 0; q < QPS; q++) {
                assertEquals(1500, c.posted[q], "QP " + q + ": the warm-up's iterations and the run's");
                assertEquals(250 + 125, c.signaled[q], "QP " + q);
            }
            assertEquals(1, asked[0], "a later warm-up asks the JIT once whether it is compiling");
        }
    }

    @Test
    void shouldRefuseABufferWhoseQueuePairPartsCannotHoldAMessage() {
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, QPS, DEPTH)) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> Bandwidth.queuePairRegion(t.client(), 1024));
            assertTrue(e.getMessage().contains("gives each of 3 QPs 640 bytes"), e.getMessage());
        }
    }

    /** Passes everything to the sim client and counts posts, signalled posts and what completions cover. */
    private static final class Counting implements BenchConnection {
        private final BenchConnection inner;
        final long[] posted;
        final long[] signaled;
        final long[] covered;
        final long[] inFlight;
        final List<Long>[] localOffsets;
        final List<Long>[] remoteOffsets;
        long mostInFlight;

        Counting(BenchConnection inner, int queuePairs) {
            this.inner = inner;
            this.posted = new long[queuePairs];
            this.signaled = new long[queuePairs];
            this.covered = new long[queuePairs];
            this.inFlight = new long[queuePairs];
            @SuppressWarnings("unchecked")
            List<Long>[] local = new List[queuePairs];
            @SuppressWarnings("unchecked")
            List<Long>[] remote = new List[queuePairs];
            for (int q = 0; q < queuePairs; q++) {
                local[q] = new ArrayList<>();
                remote[q] = new ArrayList<>();
            }
            this.localOffsets = local;
            this.remoteOffsets = remote;
        }

        private void count(int qp, boolean signal, long localOffset, long remoteOffset) {
            localOffsets[qp].add(localOffset);
            remoteOffsets[qp].add(remoteOffset);
            posted[qp]++;
            signaled[qp] += signal ? 1 : 0;
            mostInFlight = Math.max(mostInFlight, ++inFlight[qp]);
        }

        @Override
        public MemorySegment buffer() {
            return inner.buffer();
        }

        @Override
        public long bufferBytes() {
            return inner.bufferBytes();
        }

        @Override
        public int completionCapacity() {
            return inner.completionCapacity();
        }

        @Override
        public int queuePairs() {
            return inner.queuePairs();
        }

        @Override
        public void read(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signal) {
            count(qp, signal, localOffset, remoteOffset);
            inner.read(qp, localOffset, remoteOffset, bytes, wrId, signal);
        }

        @Override
        public void write(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signal) {
            count(qp, signal, localOffset, remoteOffset);
            inner.write(qp, localOffset, remoteOffset, bytes, wrId, signal);
        }

        @Override
        public void atomic(int qp, AtomicType type, long localOffset, long remoteOffset, long compareOrAdd, long swap,
                           long wrId, boolean signal) {
            count(qp, signal, localOffset, remoteOffset);
            inner.atomic(qp, type, localOffset, remoteOffset, compareOrAdd, swap, wrId, signal);
        }

        @Override
        public int poll(long[] wrIds) {
            int n = inner.poll(wrIds);
            for (int i = 0; i < n; i++) {
                int k = (int) (wrIds[i] >>> 32);
                covered[(int) wrIds[i]] += k;
                inFlight[(int) wrIds[i]] -= k;
            }
            return n;
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
