package io.remus.bench.perftest;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A benchmark's validated parameters, with perftest's meaning.
 *
 * @param test             what is measured
 * @param sizes            message sizes in bytes, run in this order ({@code -s}, or {@code -a} for all)
 * @param iterations       measured iterations per size ({@code -n}); ignored in duration mode
 * @param warmupIterations iterations run first and not recorded
 * @param duration         run each size this long ({@code -D}); null for iteration mode
 * @param margin           in duration mode, time at each end that is run but not recorded
 * @param txDepth          work requests in flight per QP ({@code -t}); bandwidth tests keep this many
 *                         posted, READs and atomics included (the device starts at most
 *                         {@code outstandingReads} of those at a time, as in perftest)
 * @param queuePairs       QPs used ({@code -q}); bandwidth tests run {@code iterations} on each, as perftest
 * @param outstandingReads READs/atomics the device has in flight per QP at most ({@code -o}, the QP's
 *                         {@code max_rd_atomic}), or {@link #DEVICE_MOST_READS}: the device's most, as
 *                         perftest without {@code -o}
 * @param cqModeration     bandwidth tests: one work request in this many asks for a completion
 *                         ({@code -Q}), and the last of a run always does; 1 to {@code txDepth}
 * @param atomicType       the atomic of atomic tests ({@code -A})
 * @param timeout          the longest wait for a completion or a peer before the run fails
 * @param jitWait          how warm-ups wait for a quiet JIT, shared by the benchmark's sizes and runs
 *                         ({@link JitWait}: the first warm-up waits in full, later ones only while the JIT compiles)
 */
public record BenchSettings(BenchTest test, List<Integer> sizes, long iterations, long warmupIterations,
                            Duration duration, Duration margin, int txDepth, int queuePairs,
                            int outstandingReads, int cqModeration, AtomicType atomicType, Duration timeout,
                            JitWait jitWait) {
    /** {@link #outstandingReads()} when {@code -o} is not given: the device's {@code max_qp_rd_atom}, as perftest. */
    public static final int DEVICE_MOST_READS = 0;

    /**
     * Copies the size list.
     *
     * @throws IllegalArgumentException when {@code cqModeration} is not in 1..{@code txDepth}: with more,
     *                                  every work request in flight could be one that never completes
     * @throws NullPointerException     when {@code jitWait} is null
     */
    public BenchSettings {
        sizes = List.copyOf(sizes);
        Objects.requireNonNull(jitWait, "jitWait");
        if (cqModeration < 1 || cqModeration > txDepth) {
            throw new IllegalArgumentException("CQ moderation must be 1.." + txDepth + " (the TX depth), got "
                    + cqModeration);
        }
    }

    /**
     * Settings with the {@code remus bench} command's wait for a quiet JIT, a fresh {@link JitWait#standard()}.
     *
     * @param test             what is measured
     * @param sizes            message sizes in bytes, run in this order
     * @param iterations       measured iterations per size; ignored in duration mode
     * @param warmupIterations iterations run first and not recorded
     * @param duration         run each size this long; null for iteration mode
     * @param margin           in duration mode, time at each end that is run but not recorded
     * @param txDepth          work requests in flight per QP
     * @param queuePairs       QPs used
     * @param outstandingReads READs/atomics the device has in flight per QP at most, or {@link #DEVICE_MOST_READS}
     * @param cqModeration     bandwidth tests: one work request in this many asks for a completion
     * @param atomicType       the atomic of atomic tests
     * @param timeout          the longest wait for a completion or a peer before the run fails
     */
    public BenchSettings(BenchTest test, List<Integer> sizes, long iterations, long warmupIterations,
                         Duration duration, Duration margin, int txDepth, int queuePairs,
                         int outstandingReads, int cqModeration, AtomicType atomicType, Duration timeout) {
        this(test, sizes, iterations, warmupIterations, duration, margin, txDepth, queuePairs, outstandingReads,
                cqModeration, atomicType, timeout, JitWait.standard());
    }

    /**
     * @param wait how warm-ups wait for a quiet JIT
     * @return these settings with {@code wait}
     */
    public BenchSettings withJitWait(JitWait wait) {
        return new BenchSettings(test, sizes, iterations, warmupIterations, duration, margin, txDepth, queuePairs,
                outstandingReads, cqModeration, atomicType, timeout, wait);
    }

    /** @return whether each size runs for {@link #duration()} instead of {@link #iterations()} */
    public boolean durationMode() {
        return duration != null;
    }

    /** @return the largest message size */
    public int maxSize() {
        return sizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    /**
     * @return how many work requests one QP may have posted and not completed: {@link #txDepth()}, READs and
     *         atomics too (perftest posts up to its TX depth and the device queues what exceeds
     *         {@link #outstandingReads()})
     */
    public int inFlightPerQueuePair() {
        return txDepth;
    }
}
