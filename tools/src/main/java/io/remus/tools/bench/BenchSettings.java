package io.remus.tools.bench;

import java.time.Duration;
import java.util.List;

/**
 * A benchmark's validated parameters, with perftest's meaning.
 *
 * @param test             what is measured
 * @param sizes            message sizes in bytes, run in this order ({@code -s}, or {@code -a} for all)
 * @param iterations       measured iterations per size ({@code -n}); ignored in duration mode
 * @param warmupIterations iterations run first and not recorded
 * @param duration         run each size this long ({@code -D}); null for iteration mode
 * @param margin           in duration mode, time at each end that is run but not recorded
 * @param txDepth          work requests in flight per QP ({@code -t})
 * @param queuePairs       QPs used, round robin ({@code -q})
 * @param outstandingReads READs/atomics in flight per QP at most ({@code -o})
 * @param atomicType       the atomic of atomic tests ({@code -A})
 * @param timeout          the longest wait for a completion or a peer before the run fails
 */
public record BenchSettings(BenchTest test, List<Integer> sizes, long iterations, long warmupIterations,
                            Duration duration, Duration margin, int txDepth, int queuePairs,
                            int outstandingReads, AtomicType atomicType, Duration timeout) {
    /** Copies the size list. */
    public BenchSettings {
        sizes = List.copyOf(sizes);
    }

    /** @return whether each size runs for {@link #duration()} instead of {@link #iterations()} */
    public boolean durationMode() {
        return duration != null;
    }

    /** @return the largest message size */
    public int maxSize() {
        return sizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    /** @return how many operations one QP may have in flight for this test */
    public int inFlightPerQueuePair() {
        BenchOperation op = test.operation();
        boolean limited = op == BenchOperation.READ || op == BenchOperation.ATOMIC;
        return limited ? Math.min(txDepth, outstandingReads) : txDepth;
    }
}
