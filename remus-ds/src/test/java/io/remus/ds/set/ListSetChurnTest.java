package io.remus.ds.set;

import io.remus.alock.kind.LockKind;
import io.remus.ds.testing.Contention;
import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Churn: threads on every node insert and remove keys of a small range for thousands of operations, so that
 * the sets retire far more nodes than they ever hold. With {@link EpochReclaimer} each thread's unreclaimed
 * bytes stay under the reclaimer's limit after every operation (its documented bound once the guard closed)
 * while the run retires many times that; with {@link NeverReclaimer} the same run keeps everything it retired.
 * On the hostile simulator with poison in freed blocks, so that a node freed while still read would show.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ListSetChurnTest {
    private static final int THREADS = 3;
    private static final int OPS = 3000;
    private static final int KEYS = 16;
    private static final long PASS = 512;
    private static final long LIMIT = 2048;
    /**
     * No thread here stalls on purpose, so the lease is long: on a loaded host a lazy-list lock wait cut by a
     * 1 s lease leaves a queue lock's node behind (see {@link LazyListSet}), which is not what this test is about.
     */
    private static final EpochOptions EPOCHS = EpochOptions.defaults().withBytes(PASS, LIMIT).withLimitWait(Duration.ofSeconds(20))
            .withLease(Duration.ofSeconds(10));

    static Stream<Named<SetMaker>> sets() {
        return Stream.of(SetMaker.lockFree(), SetMaker.lazy(LockKind.ALOCK), SetMaker.skipList()).map(m -> Named.of(m.name(), m));
    }

    /** Totals of one run. */
    private record Run(long retired, long peakUnreclaimed, long unreclaimedAtEnd, long limitTimeouts) {
    }

    private static Run churn(SetMaker maker, Function<ComputeThread, Reclaimer> reclaimers) throws InterruptedException {
        AtomicLong retired = new AtomicLong();
        AtomicLong peak = new AtomicLong();
        AtomicLong atEnd = new AtomicLong();
        AtomicLong timeouts = new AtomicLong();
        try (TestCluster c = SetHistories.cluster(SimFabric::new)) {
            long ptr;
            try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                ptr = maker.create(t, r, SetHistories.HOME);
            }
            c.runOnThreads(Contention.spread(THREADS, SetHistories.NODES), (index, t) -> {
                SplittableRandom rnd = new SplittableRandom(index);
                try (Reclaimer reclaimer = reclaimers.apply(t); RemoteSet set = maker.attach(t, reclaimer, ptr)) {
                    for (int i = 0; i < OPS; i++) {
                        long key = rnd.nextInt(KEYS);
                        if (rnd.nextBoolean()) {
                            set.insert(key);
                        } else {
                            set.remove(key);
                        }
                        peak.accumulateAndGet(reclaimer.unreclaimedBytes(), Math::max);
                    }
                    retired.addAndGet(reclaimer.retiredBytes());
                    atEnd.addAndGet(reclaimer.unreclaimedBytes());
                    if (reclaimer instanceof EpochReclaimer e) {
                        timeouts.addAndGet(e.limitTimeouts());
                    }
                }
            });
            try (ComputeThread t = c.thread(2); NeverReclaimer r = new NeverReclaimer(t); RemoteSet set = maker.attach(t, r, ptr)) {
                for (long key = 0; key < KEYS; key++) {
                    set.contains(key);
                }
            }
        }
        return new Run(retired.get(), peak.get(), atEnd.get(), timeouts.get());
    }

    @ParameterizedTest
    @MethodSource("sets")
    void shouldKeepUnreclaimedBytesUnderTheLimitWhenEpochsReclaimAChurningSet(SetMaker maker) throws InterruptedException {
        Run run = churn(maker, t -> new EpochReclaimer(t, t.allocator(), EPOCHS));
        assertEquals(0, run.limitTimeouts(), "no wait for the limit ran out");
        assertTrue(run.peakUnreclaimed() < LIMIT, "unreclaimed bytes after each operation stay under the limit " + LIMIT
                + ", peak " + run.peakUnreclaimed());
        assertTrue(run.retired() > 20 * LIMIT, "the run retired far more than the limit: " + run.retired());
    }

    @ParameterizedTest
    @MethodSource("sets")
    void shouldKeepEverythingItRetiredWhenNothingReclaims(SetMaker maker) throws InterruptedException {
        Run run = churn(maker, NeverReclaimer::new);
        assertEquals(run.retired(), run.unreclaimedAtEnd(), "never-free keeps every retired node");
        assertTrue(run.unreclaimedAtEnd() > 20 * LIMIT, "far above the epoch run's limit: " + run.unreclaimedAtEnd());
    }
}
