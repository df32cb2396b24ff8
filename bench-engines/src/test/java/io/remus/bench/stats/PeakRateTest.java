package io.remus.bench.stats;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeakRateTest {
    @Test
    void shouldReportTheRateOfASteadyStreamWhenOneOperationIsInFlight() {
        PeakRate p = new PeakRate(1, 1);
        for (long k = 0; k < 100; k++) {
            p.posted(0, 100 * k);
            p.completed(0, 1, 100 * k + 100, true);
        }
        assertEquals(1e7, p.bestMessagesPerSecond(), 1.0);
    }

    @Test
    void shouldNeverExceedTheDeviceRateWhenCompletionsArriveInBursts() {
        int queuePairs = 2;
        int depth = 16;
        long opNanos = 100;
        long burstNanos = 50_000;
        PeakRate p = new PeakRate(queuePairs, depth);
        long[] inFlight = new long[queuePairs];
        long deviceFree = 0;
        long[][] done = new long[queuePairs][depth];
        long[] head = new long[queuePairs];
        long[] tail = new long[queuePairs];
        for (long now = 0; now < 20_000_000; now += burstNanos) {
            for (int q = 0; q < queuePairs; q++) {
                while (tail[q] > head[q] && done[q][(int) (head[q] % depth)] <= now) {
                    head[q]++;
                    inFlight[q]--;
                    p.completed(q, 1, now, true);
                }
            }
            for (int q = 0; q < queuePairs; q++) {
                while (inFlight[q] < depth) {
                    p.posted(q, now);
                    deviceFree = Math.max(deviceFree, now) + opNanos;
                    done[q][(int) (tail[q]++ % depth)] = deviceFree;
                    inFlight[q]++;
                }
            }
        }
        double deviceRate = 1e9 / opNanos;
        double average = 1e9 * queuePairs * depth / burstNanos;
        assertTrue(p.bestMessagesPerSecond() <= deviceRate, "peak " + p.bestMessagesPerSecond() + " over " + deviceRate);
        assertTrue(p.bestMessagesPerSecond() >= average / 2, "peak " + p.bestMessagesPerSecond() + " under " + average);
    }

    @Test
    void shouldCountTheWholeRunAsASpanWhenShorterThanTheLastCompletionsSpan() {
        PeakRate p = new PeakRate(1, 4);
        p.posted(0, 0);
        p.completed(0, 1, 10, true);
        assertEquals(1e8, p.bestMessagesPerSecond(), 1.0);
    }

    /** {@link System#nanoTime()} may be negative: the first post is not told by its sign. */
    @Test
    void shouldKeepTheFirstPostWhenTheClockReadsNegative() {
        PeakRate p = new PeakRate(1, 1);
        long base = -1_000_000;
        for (long k = 0; k < 10; k++) {
            p.posted(0, base + 100 * k);
            p.completed(0, 1, base + 100 * k + 100, true);
        }
        assertEquals(1e7, p.bestMessagesPerSecond(), 1.0);
    }

    @Test
    void shouldNotReportAPeakBelowTheAverageOfASteadyFullPipeline() {
        int depth = 8;
        long opNanos = 100;
        PeakRate p = new PeakRate(1, depth);
        for (int k = 0; k < depth; k++) {
            p.posted(0, 0);
        }
        int operations = 10_000;
        long last = 0;
        for (int k = 0; k < operations; k++) {
            last = (k + 1) * opNanos;
            p.completed(0, 1, last, true);
            if (k + depth < operations) {
                p.posted(0, last);
            }
        }
        double average = operations * 1e9 / last;
        assertTrue(p.bestMessagesPerSecond() >= average, "peak " + p.bestMessagesPerSecond() + " under the average " + average);
        assertTrue(p.bestMessagesPerSecond() <= 1e9 / opNanos * (1 + 1e-9), "peak " + p.bestMessagesPerSecond());
    }

    /**
     * Queue pair 1 posts its whole depth at time 0 and those four complete last; queue pair 0 runs 28
     * operations one at a time in between. The span of the last 32 completions starts at queue pair
     * 0's first post, after queue pair 1's four: only 28 of its 32 operations were posted inside it.
     * Counting all 32 would claim 11.4 million per second, more than any real span (the best is the
     * whole run, 32 operations from time 0: 11.0 million).
     */
    @Test
    void shouldNotCountOperationsOfOtherQueuePairsPostedBeforeTheSpan() {
        int depth = 4;
        PeakRate p = new PeakRate(2, depth);
        List<long[]> ops = new ArrayList<>(); // {post, completion}
        for (int k = 0; k < depth; k++) {
            p.posted(1, 0);
        }
        for (int k = 1; k <= 28; k++) {
            p.posted(0, 100L * k);
            p.completed(0, 1, 100L * k + 100, true);
            ops.add(new long[] {100L * k, 100L * k + 100});
        }
        for (int k = 0; k < depth; k++) {
            p.completed(1, 1, 2_901, true);
            ops.add(new long[] {0, 2_901});
        }
        double best = bestOverAllSpans(ops);
        assertEquals(32 * 1e9 / 2_901, best, 1e-3);
        assertTrue(p.bestMessagesPerSecond() <= best * (1 + 1e-12), "peak " + p.bestMessagesPerSecond() + " over " + best);
    }

    /**
     * With CQ moderation one completion stands for several operations, all seen at the time it is
     * polled. Recording them as one batch must give what recording them one by one at that time gives,
     * and stay within perftest's definition over the same operations.
     */
    @Test
    void shouldTreatABatchLikeItsOperationsCompletingTogetherWhenCompletionsAreModerated() {
        int depth = 8;
        int moderation = 3;
        PeakRate batched = new PeakRate(1, depth);
        PeakRate single = new PeakRate(1, depth);
        List<long[]> ops = new ArrayList<>();
        long now = 0;
        int inFlight = 0;
        for (int k = 0; k < 300; k++) {
            now += 10 + (k * 37) % 90; // posts at uneven intervals
            batched.posted(0, now);
            single.posted(0, now);
            ops.add(new long[] {now, -1});
            inFlight++;
            if (inFlight == depth - depth % moderation || k == 299) {
                int done = k == 299 ? inFlight : moderation;
                now += 50 + (k * 53) % 400;
                batched.completed(0, done, now, true);
                for (int i = 0; i < done; i++) {
                    single.completed(0, 1, now, true);
                }
                for (long[] op : ops) {
                    if (op[1] < 0 && done > 0) {
                        op[1] = now;
                        done--;
                    }
                }
                inFlight -= k == 299 ? inFlight : moderation;
            }
        }
        assertEquals(single.bestMessagesPerSecond(), batched.bestMessagesPerSecond(), 1e-6);
        double best = bestOverAllSpans(ops);
        assertTrue(batched.bestMessagesPerSecond() <= best * (1 + 1e-12), "peak " + batched.bestMessagesPerSecond()
                + " over " + best);
        assertThrows(IllegalStateException.class, () -> batched.completed(0, 1, 0, true));
        long end = now + 1;
        batched.posted(0, end);
        assertThrows(IllegalStateException.class, () -> batched.completed(0, 2, end, true));
        assertThrows(IllegalArgumentException.class, () -> batched.completed(0, 0, end, true));
    }

    /**
     * perftest's definition, by brute force: the best {@code n / (e - s)} over every post time
     * {@code s} and completion time {@code e}, {@code n} the operations posted at or after {@code s}
     * and completed by {@code e}.
     */
    private static double bestOverAllSpans(List<long[]> ops) {
        double best = -1;
        for (long[] start : ops) {
            for (long[] end : ops) {
                long span = end[1] - start[0];
                if (span <= 0) {
                    continue;
                }
                int n = 0;
                for (long[] op : ops) {
                    if (op[0] >= start[0] && op[1] <= end[1]) {
                        n++;
                    }
                }
                best = Math.max(best, n * 1e9 / span);
            }
        }
        return best;
    }

    @Test
    void shouldIgnoreSpansOutsideTheMeasuredWindow() {
        PeakRate p = new PeakRate(1, 1);
        for (long k = 0; k < 100; k++) {
            p.posted(0, 100 * k);
            p.completed(0, 1, 100 * k + 100, false);
        }
        assertEquals(-1, p.bestMessagesPerSecond());
    }

    @Test
    void shouldRejectAPostBeyondTheDepthAndACompletionOfNothing() {
        PeakRate p = new PeakRate(1, 1);
        assertThrows(IllegalStateException.class, () -> p.completed(0, 1, 0, true));
        p.posted(0, 0);
        assertThrows(IllegalStateException.class, () -> p.posted(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PeakRate(0, 1));
    }

    @Test
    void shouldComputeBandwidthInPerftestUnitsWhenGivenCounts() {
        BandwidthSummary b = new BandwidthSummary(1 << 20, 1000, 1_000_000_000L, -1);
        assertEquals(1000.0, b.averageMbPerSecond(), 1e-9);
        assertEquals(1000.0, b.peakMbPerSecond(), 1e-9);
        assertEquals(1000.0 * (1 << 20) * 8 / 1e9, b.averageGbitsPerSecond(), 1e-9);
        assertEquals(0.001, b.messageRateMpps(), 1e-12);
        assertEquals(2000.0, new BandwidthSummary(1 << 20, 1000, 1_000_000_000L, 2000).peakMbPerSecond(), 1e-9);
    }
}
