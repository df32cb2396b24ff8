package io.remus.bench.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.ds.identity.StructureIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SharingExperiment} on the simulator without a cost model, by behaviour rather than speed:
 * every way's counters end exactly at the increments applied to them (the engine checks it and throws
 * otherwise), every increment's latency reaches a sink, and the RDMA operations per increment are the
 * ones each way's design states where they are exact.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SharingExperimentTest {
    private static final List<SharingWay> ALL = List.of(SharingWay.values());

    private static SharingConfig config(List<SharingWay> ways, int nodes, int threads, int counters, double theta,
                                        double pLocal) {
        return new SharingConfig(ways, nodes, threads, counters, theta, pLocal, Duration.ofMillis(150), 16L << 20, 7);
    }

    private static List<SharingResult> run(SharingConfig c, AtomicLongArray recorded) throws InterruptedException {
        try (SimFabric fabric = new SimFabric(SimOptions.defaults())) {
            return SharingExperiment.run(fabric, c, (way, worker) -> nanos -> recorded.incrementAndGet(way.ordinal()));
        }
    }

    @ParameterizedTest
    @CsvSource({"2, 2, 3, 0, NaN", "3, 2, 16, 0.99, NaN", "3, 1, 7, 0.5, 0.5", "2, 2, 1, 0, NaN"})
    void shouldEndEveryWaysCountersAtTheirIncrementsWhenWorkersShareThem(int nodes, int threads, int counters,
                                                                         double theta, double pLocal)
            throws InterruptedException {
        AtomicLongArray recorded = new AtomicLongArray(SharingWay.values().length);
        List<SharingResult> results = run(config(ALL, nodes, threads, counters, theta, pLocal), recorded);
        assertEquals(ALL, results.stream().map(SharingResult::way).toList());
        for (SharingResult r : results) {
            String what = r.way() + ": " + r.increments() + " increments";
            assertTrue(r.increments() > 0, what);
            assertEquals(r.increments(), recorded.get(r.way().ordinal()), "every latency reached a sink: " + what);
            assertTrue(r.localPicks() <= r.increments(), what);
            assertTrue(r.opsPerSecond() > 0, what);
        }
    }

    @ParameterizedTest
    @CsvSource({"FAA", "ALOCK", "SPIN", "MCS", "WAITFREE"})
    void shouldFreeEveryCounterWhenTheRunEnds(SharingWay way) throws InterruptedException {
        List<Integer> states = new ArrayList<>();
        try (SimFabric fabric = new SimFabric(SimOptions.defaults())) {
            SharingExperiment.run(fabric, config(List.of(way), 2, 2, 4, 0, 0.5), SharingExperiment.Sinks.NONE, run -> {
                try (ComputeThread t = run.node(0).newComputeThread()) {
                    for (long ptr : run.counterPtrs()) {
                        states.add(BlockHeader.state(t.read(
                                BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES)))));
                    }
                }
            });
        }
        assertEquals(4, states.size(), "a root per counter");
        for (int state : states) {
            assertEquals(BlockHeader.FREE, state, "the creator's destroy after the workers closed freed the counter");
        }
    }

    @Test
    void shouldRunEveryConfigurationOnAFreshFabricInOrderWhenGivenSeveral() throws InterruptedException {
        List<SharingWay> ways = List.of(SharingWay.FAA, SharingWay.ALOCK);
        int[] fabrics = {0};
        List<SharingRun> runs = SharingRunner.run(() -> {
            fabrics[0]++;
            return new SimFabric(SimOptions.defaults());
        }, List.of(config(ways, 2, 1, 8, 0, Double.NaN), config(ways, 2, 2, 8, 0, Double.NaN)));
        assertEquals(List.of(1, 1, 2, 2), runs.stream().map(SharingRun::threadsPerNode).toList());
        assertEquals(List.of(SharingWay.FAA, SharingWay.ALOCK, SharingWay.FAA, SharingWay.ALOCK),
                runs.stream().map(r -> r.result().way()).toList());
        assertEquals(2, fabrics[0], "one fabric per configuration");
        assertTrue(runs.stream().allMatch(r -> r.result().increments() > 0), runs.toString());
    }

    @Test
    void shouldPostOneFetchAndAddInOneRoundTripPerIncrementWhenTheWayIsFaa() throws InterruptedException {
        SharingResult r = run(config(List.of(SharingWay.FAA), 2, 2, 8, 0, 0.5),
                new AtomicLongArray(SharingWay.values().length)).getFirst();
        assertEquals(1.0, r.postedPerIncrement(Opcode.FETCH_AND_ADD), 1e-12);
        assertEquals(1.0, r.postedPerIncrement(Opcode.READ), 1e-12, "the counter's handles word, in the same doorbell");
        assertEquals(2.0, r.postedPerIncrement(), 1e-12);
        assertEquals(1.0, r.roundTripsPerIncrement(), 1e-12);
    }

    @Test
    void shouldPostFourWritesPerIncrementWhenEveryPickIsOnAnotherNodesTrustee() throws InterruptedException {
        SharingResult r = run(config(List.of(SharingWay.DELEGATED), 2, 2, 8, 0, 0.0),
                new AtomicLongArray(SharingWay.values().length)).getFirst();
        assertEquals(0, r.localPicks());
        assertEquals(4.0, r.postedPerIncrement(Opcode.WRITE), 1e-12, "2 WRITEs for the request, 2 for the response");
        assertEquals(4.0, r.postedPerIncrement(), 1e-12);
        assertTrue(r.roundTripsPerIncrement() > 1.0 - 1e-12 && r.roundTripsPerIncrement() <= 2.0 + 1e-12,
                "the client's 1 and at most 1 of a trustee's pass: " + r.roundTripsPerIncrement());
    }

    @Test
    void shouldPostNoRdmaWhenEveryPickIsOnTheWorkersOwnTrustee() throws InterruptedException {
        SharingResult r = run(config(List.of(SharingWay.DELEGATED), 2, 2, 8, 0, 1.0),
                new AtomicLongArray(SharingWay.values().length)).getFirst();
        assertEquals(r.increments(), r.localPicks());
        assertEquals(0.0, r.postedPerIncrement());
        assertEquals(0.0, r.roundTripsPerIncrement());
    }

    @Test
    void shouldThrowNamingTheCounterWhenAFinalValueMissesAnIncrement() {
        int[][] applied = {{2, 1}, {0, 3}};
        SharingExperiment.checkTotals(SharingWay.SPIN, new long[]{2, 4}, applied, 6);
        CounterMismatchException lost = assertThrows(CounterMismatchException.class,
                () -> SharingExperiment.checkTotals(SharingWay.SPIN, new long[]{2, 3}, applied, 6));
        assertTrue(lost.getMessage().contains("spin: counter 1 holds 3 after 4 increments"), lost.getMessage());
        CounterMismatchException uncounted = assertThrows(CounterMismatchException.class,
                () -> SharingExperiment.checkTotals(SharingWay.FAA, new long[]{2, 4}, applied, 7));
        assertTrue(uncounted.getMessage().contains("hold 6 in all after 7"), uncounted.getMessage());
    }

    @Test
    void shouldRefuseBadConfigurationsNamingTheValue() {
        assertMessage("threadsPerNode must be 1..32, got 0",
                () -> new SharingConfig(ALL, 2, 0, 4, 0, Double.NaN, Duration.ofSeconds(1), 16L << 20, 1));
        assertMessage("zipfTheta must be in [0, 1), got -0.5",
                () -> new SharingConfig(ALL, 2, 1, 4, -0.5, Double.NaN, Duration.ofSeconds(1), 16L << 20, 1));
        assertMessage("pLocal must be in [0, 1], got 1.5",
                () -> new SharingConfig(ALL, 2, 1, 4, 0, 1.5, Duration.ofSeconds(1), 16L << 20, 1));
        assertMessage("counters 1 < nodes 2",
                () -> new SharingConfig(ALL, 2, 1, 1, 0, 0.9, Duration.ofSeconds(1), 16L << 20, 1));
        assertMessage("unknown way 'ticket'", () -> SharingWay.parse("ticket"));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable e) {
        BadArgumentException x = assertThrows(BadArgumentException.class, e);
        assertTrue(x.getMessage().contains(part), x.getMessage());
    }
}
