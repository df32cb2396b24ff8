package io.remus.bench.churn;

import io.remus.core.ClusterBarrier;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.BarrierReclaimer;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Use after free is caught: the churn workload on several threads of several nodes, with poisoned
 * frees and random yields, reads no freed or reused block inside a valid guard with a correct
 * reclaimer, and does with one that frees at retire.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ChurnTest {
    private static final int WORKERS = 4;
    private static final int OPS = 4000;

    @Test
    void shouldNeverReadFreedMemoryWithEpochReclaimer() throws InterruptedException {
        EpochOptions options = EpochOptions.defaults().withLease(Duration.ofSeconds(30)).withClockSkew(Duration.ZERO)
                .withBytes(256, 1024);
        try (TestCluster c = ChurnHarness.cluster(1 << 20)) {
            long array = ChurnHarness.array(c);
            ChurnHarness.Worker[] w = ChurnHarness.run(c, array, WORKERS, OPS, 50, 20, 0, false,
                    (t, a) -> new EpochReclaimer(t, a, options), () -> true);
            assertEquals(0, ChurnHarness.total(w, ChurnHarness.Worker::violations), ChurnHarness.firstViolation(w));
            assertEquals(0, ChurnHarness.total(w, ChurnHarness.Worker::restarts), "a 30 s lease does not run out");
            assertTrue(ChurnHarness.total(w, ChurnHarness.Worker::reads) > OPS, "reads were checked");
            long retired = ChurnHarness.total(w, ChurnHarness.Worker::retiredBytes);
            long left = ChurnHarness.total(w, ChurnHarness.Worker::unreclaimedAtEnd);
            assertTrue(retired > 0 && left < retired / 4, "most retired blocks were freed (and their memory reused): "
                    + left + " of " + retired + " bytes left");
        }
    }

    @Test
    void shouldNeverReadFreedMemoryWhenAComputeOnlyNodeAnnouncesRemotely() throws InterruptedException {
        EpochOptions options = EpochOptions.defaults().withLease(Duration.ofSeconds(30)).withClockSkew(Duration.ZERO)
                .withBytes(256, 1024);
        try (TestCluster c = ChurnHarness.cluster(1 << 20, 2)) {
            long array = ChurnHarness.array(c);
            ChurnHarness.Worker[] w = ChurnHarness.run(c, array, 6, OPS / 2, 50, 20, 0, false,
                    (t, a) -> new EpochReclaimer(t, a, options), () -> true);
            assertEquals(0, ChurnHarness.total(w, ChurnHarness.Worker::violations), ChurnHarness.firstViolation(w));
            assertTrue(w[2].reads() > 0 && w[2].replaces() > 0, "node 2, a compute-only node, took part");
            long retired = ChurnHarness.total(w, ChurnHarness.Worker::retiredBytes);
            long left = ChurnHarness.total(w, ChurnHarness.Worker::unreclaimedAtEnd);
            assertTrue(left < retired / 4, "most retired blocks were freed: " + left + " of " + retired + " bytes left");
        }
    }

    @Test
    void shouldNeverReadFreedMemoryWithBarrierReclaimer() throws InterruptedException {
        try (TestCluster c = ChurnHarness.cluster(1 << 20)) {
            long array = ChurnHarness.array(c);
            ChurnHarness.Worker[] w = ChurnHarness.run(c, array, WORKERS, OPS, 50, 20, 100, false,
                    (t, a) -> new BarrierReclaimer(t, a, new ClusterBarrier(t, WORKERS)), () -> true);
            assertEquals(0, ChurnHarness.total(w, ChurnHarness.Worker::violations), ChurnHarness.firstViolation(w));
            assertTrue(ChurnHarness.total(w, ChurnHarness.Worker::reads) > OPS, "reads were checked");
            assertEquals(0, ChurnHarness.total(w, ChurnHarness.Worker::unreclaimedAtEnd),
                    "the last barrier freed everything retired before it");
            assertTrue(ChurnHarness.total(w, ChurnHarness.Worker::retiredBytes) > 0);
        }
    }

    @Test
    void shouldCatchAReclaimerThatFreesAtRetire() throws InterruptedException {
        try (TestCluster c = ChurnHarness.cluster(1 << 20)) {
            long array = ChurnHarness.array(c);
            ChurnHarness.Worker[] w = ChurnHarness.run(c, array, WORKERS, 10 * OPS, 50, 20, 0, true,
                    FreeAtRetireReclaimer::new, () -> true);
            assertTrue(ChurnHarness.total(w, ChurnHarness.Worker::violations) > 0,
                    "the checker must see freed or reused memory when blocks are freed at retire");
        }
    }
}
