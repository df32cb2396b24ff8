package io.remus.bench.perftest;

import io.remus.core.error.BadArgumentException;
import io.remus.core.time.ThreadTime;

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
 * @param atomicWords      atomic bandwidth: the remote words, 8 bytes apart at the start of the server's buffer, that
 *                         every QP's atomics cycle through in posting order, shared by all QPs ({@code --words}); 0
 *                         for perftest's spread (each QP's own part of the buffer, a cache line per request, a page
 *                         per cycle: 64 words per QP)
 */
public record BenchSettings(BenchTest test, List<Integer> sizes, long iterations, long warmupIterations,
                            Duration duration, Duration margin, int txDepth, int queuePairs,
                            int outstandingReads, int cqModeration, AtomicType atomicType, Duration timeout,
                            JitWait jitWait, int atomicWords) {
    /** The most {@link #atomicWords()}: the words of one {@link Bandwidth#CYCLE_BYTES} page, which either half of a
     *  bandwidth run's buffer holds. */
    public static final int MAX_ATOMIC_WORDS = Bandwidth.CYCLE_BYTES / Long.BYTES;

    /** {@link #outstandingReads()} when {@code -o} is not given: the device's {@code max_qp_rd_atom}, as perftest. */
    public static final int DEVICE_MOST_READS = 0;

    /**
     * Copies the size list.
     *
     * @throws IllegalArgumentException when {@code cqModeration} is not in 1..{@code txDepth}: with more,
     *                                  every work request in flight could be one that never completes
     * @throws NullPointerException     when {@code jitWait} is null
     * @throws BadArgumentException     when {@code atomicWords} is not in 0..{@link #MAX_ATOMIC_WORDS}, naming it
     */
    public BenchSettings {
        sizes = List.copyOf(sizes);
        Objects.requireNonNull(jitWait, "jitWait");
        if (atomicWords < 0 || atomicWords > MAX_ATOMIC_WORDS) {
            throw new BadArgumentException("atomic words must be 0 (perftest's spread) or 1.." + MAX_ATOMIC_WORDS
                    + " (--words), got " + atomicWords);
        }
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
     * Settings with perftest's spread of atomics ({@link #atomicWords()} 0).
     *
     * @param test             what is measured
     * @param sizes            message sizes in bytes
     * @param iterations       measured iterations per size
     * @param warmupIterations iterations run first and not recorded
     * @param duration         run each size this long; null for iteration mode
     * @param margin           in duration mode, time at each end that is run but not recorded
     * @param txDepth          work requests in flight per QP
     * @param queuePairs       QPs used
     * @param outstandingReads READs/atomics the device has in flight per QP at most, or {@link #DEVICE_MOST_READS}
     * @param cqModeration     bandwidth tests: one work request in this many asks for a completion
     * @param atomicType       the atomic of atomic tests
     * @param timeout          the longest wait for a completion or a peer before the run fails
     * @param jitWait          how warm-ups wait for a quiet JIT
     */
    public BenchSettings(BenchTest test, List<Integer> sizes, long iterations, long warmupIterations,
                         Duration duration, Duration margin, int txDepth, int queuePairs,
                         int outstandingReads, int cqModeration, AtomicType atomicType, Duration timeout,
                         JitWait jitWait) {
        this(test, sizes, iterations, warmupIterations, duration, margin, txDepth, queuePairs, outstandingReads,
                cqModeration, atomicType, timeout, jitWait, 0);
    }

    /**
     * @param words the remote words atomic bandwidth cycles through, 1..{@link #MAX_ATOMIC_WORDS}, or 0 for perftest's
     *              spread
     * @return these settings with {@code words}
     * @throws BadArgumentException when {@code words} is out of range, naming it
     */
    public BenchSettings withAtomicWords(int words) {
        return new BenchSettings(test, sizes, iterations, warmupIterations, duration, margin, txDepth, queuePairs,
                outstandingReads, cqModeration, atomicType, timeout, jitWait, words);
    }

    /**
     * @return these settings without a warm-up: no warm-up iterations and no wait for a quiet JIT, as a run under the
     *         simulator's virtual-time scheduler takes them ({@link BenchRunner#report}), where the JIT's state changes
     *         no figure
     */
    public BenchSettings withoutWarmUp() {
        return new BenchSettings(test, sizes, iterations, 0, duration, margin, txDepth, queuePairs, outstandingReads,
                cqModeration, atomicType, timeout, JitWait.off(), atomicWords);
    }

    /**
     * {@return whether a run warms up before it measures: in duration mode or with warm-up iterations, and never on a
     *          thread of the virtual-time scheduler ({@link ThreadTime#isScheduled()}), whose figures do not depend on
     *          the JIT}
     */
    public boolean warmsUp() {
        return !ThreadTime.isScheduled() && (durationMode() || warmupIterations > 0);
    }

    /**
     * @param wait how warm-ups wait for a quiet JIT
     * @return these settings with {@code wait}
     */
    public BenchSettings withJitWait(JitWait wait) {
        return new BenchSettings(test, sizes, iterations, warmupIterations, duration, margin, txDepth, queuePairs,
                outstandingReads, cqModeration, atomicType, timeout, wait, atomicWords);
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
