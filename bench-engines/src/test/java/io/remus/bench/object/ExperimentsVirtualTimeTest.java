package io.remus.bench.object;

import io.remus.bench.engines.SimFabrics;
import io.remus.bench.engines.SimTime;
import io.remus.bench.structure.Ycsb;
import io.remus.core.sim.SimCostModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SharingRunner} and {@link KvRunner} in virtual time ({@link SimTime#virtual}) on 2 nodes x 1 worker for
 * 10 ms of virtual time per way: the same seed gives the same counts per way, another seed other counts.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExperimentsVirtualTimeTest {
    private static final Duration VIRTUAL_DURATION = Duration.ofMillis(10);
    private static final List<SharingWay> SHARING_WAYS =
            List.of(SharingWay.FAA, SharingWay.ALOCK, SharingWay.SPIN, SharingWay.MCS, SharingWay.DELEGATED);

    /** {@return per way in order: increments, local picks, virtual nanoseconds, RDMA operations, round trips} */
    private static List<String> sharingCounts(long seed) throws Exception {
        SimTime time = SimTime.virtual(SimCostModel.CONNECTX5, seed);
        SharingConfig config = new SharingConfig(SHARING_WAYS, 2, 1, 4, 0.99, Double.NaN, VIRTUAL_DURATION,
                16L << 20, seed);
        List<SharingRun> runs = SharingRunner.run(() -> SimFabrics.connectx5(time), config, time);
        assertEquals(SHARING_WAYS.size(), runs.size());
        List<String> counts = new ArrayList<>();
        for (SharingRun run : runs) {
            SharingResult r = run.result();
            assertTrue(r.increments() > 0, r.way() + " made no increment");
            assertTrue(r.elapsedNanos() >= VIRTUAL_DURATION.toNanos(), r.way() + " measured " + r.elapsedNanos() + " ns");
            assertEquals(r.increments(), run.latency().count(), "every increment in the histogram");
            counts.add(r.way() + " " + r.increments() + " " + r.localPicks() + " " + r.elapsedNanos() + " "
                    + r.postedPerIncrement() + " " + r.roundTripsPerIncrement());
        }
        return counts;
    }

    /** {@return per workload and way in order: reads, updates, virtual nanoseconds, round trips} */
    private static List<String> kvCounts(long seed) throws Exception {
        SimTime time = SimTime.virtual(SimCostModel.CONNECTX5, seed);
        KvConfig config = new KvConfig(List.of(KvWay.values()), List.of(Ycsb.A), 2, 1, 16, 0.99, Double.NaN,
                VIRTUAL_DURATION, 16L << 20, seed, 8);
        List<KvRun> runs = KvRunner.run(() -> SimFabrics.connectx5(time), config, time);
        assertEquals(KvWay.values().length, runs.size());
        List<String> counts = new ArrayList<>();
        for (KvRun run : runs) {
            KvResult r = run.result();
            assertTrue(r.reads() + r.updates() > 0, r.way() + " made no operation");
            counts.add(r.way() + " " + r.workload() + " " + r.reads() + " " + r.updates() + " " + r.elapsedNanos()
                    + " " + r.roundTrips());
        }
        return counts;
    }

    @Test
    void shouldGiveTheSameSharingCountsPerWayFromTheSameSeedAndOtherCountsFromAnotherSeed() throws Exception {
        List<String> first = sharingCounts(5);
        assertEquals(first, sharingCounts(5));
        assertNotEquals(first, sharingCounts(6));
    }

    @Test
    void shouldGiveTheSameKvCountsPerWayFromTheSameSeedAndOtherCountsFromAnotherSeed() throws Exception {
        List<String> first = kvCounts(5);
        assertEquals(first, kvCounts(5));
        assertNotEquals(first, kvCounts(6));
    }
}
