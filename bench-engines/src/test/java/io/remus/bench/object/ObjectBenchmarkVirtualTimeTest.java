package io.remus.bench.object;

import io.remus.bench.engines.SimFabrics;
import io.remus.bench.engines.SimTime;
import io.remus.core.sim.SimCostModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ObjectRunner} in virtual time ({@link SimTime#virtual}): 2 nodes x 2 workers for 10 ms of virtual time on
 * a wait-free counter, a queue under ALock with worker 0 stalled while it holds the lock, and a wait-free stack with
 * worker 0 stalled before its compare-and-swap. The same seed gives the same counts, RDMA operations, virtual
 * elapsed times, stalls and latencies; another seed runs as well; the stall lasts its length of virtual time; the
 * same runs on host threads keep their wall clock.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ObjectBenchmarkVirtualTimeTest {
    private static final Duration RUN = Duration.ofMillis(10);

    private static List<ObjectBenchmarkConfig> configs() {
        return List.of(
                new ObjectBenchmarkConfig(ObjectKind.COUNTER, ImplKind.WAITFREE, 2, 2, RUN, false, 16, 64, 16L << 20, 7),
                new ObjectBenchmarkConfig(ObjectKind.QUEUE, ImplKind.ALOCK, 2, 2, RUN, true, 16, 64, 16L << 20, 7),
                new ObjectBenchmarkConfig(ObjectKind.STACK, ImplKind.WAITFREE, 2, 2, RUN, true, 16, 64, 16L << 20, 7));
    }

    /**
     * @param schedulerSeed the virtual-time scheduler's seed (the workers' choices keep seed 7)
     * @return per run: its object, operations, RDMA counts, virtual elapsed and stall nanoseconds, latencies
     */
    private static List<String> fingerprints(long schedulerSeed) throws InterruptedException {
        SimTime time = SimTime.virtual(SimCostModel.CONNECTX5, schedulerSeed);
        List<String> notes = new ArrayList<>();
        List<ObjectRun> runs = ObjectRunner.run(() -> SimFabrics.connectx5(time), configs(), 0.5, notes, time);
        assertTrue(notes.contains("no warm-up: virtual-time figures do not depend on the host's JIT"), notes.toString());
        List<String> prints = new ArrayList<>();
        for (ObjectRun run : runs) {
            ObjectBenchmarkResult r = run.result();
            ObjectBenchmarkConfig c = r.config();
            String what = c.object() + "/" + c.impl() + (c.stall() ? "+stall" : "");
            assertTrue(r.ops() > 0 && r.postedPerOp() > 0, what + ": operations with RDMA");
            assertTrue(r.elapsedNanos() >= RUN.toNanos() && r.elapsedNanos() < RUN.toNanos() + 1_000_000,
                    what + ": ran " + r.elapsedNanos() + " ns of virtual time");
            if (c.stall()) {
                assertTrue(r.stallNanos() >= c.stallLength().toNanos() && r.stallNanos() < RUN.toNanos(),
                        what + ": stood still " + r.stallNanos() + " ns of virtual time");
            }
            prints.add(what + " ops " + r.ops() + " posted " + Arrays.toString(r.postedOperations()) + " elapsed "
                    + r.elapsedNanos() + " stall " + r.stallNanos() + " others " + r.othersDuringStall() + " stalled "
                    + r.stalledOps() + " latency " + run.latency());
        }
        return prints;
    }

    @Test
    void shouldGiveTheSameCountsAndVirtualFiguresFromTheSameSeed() throws InterruptedException {
        assertEquals(fingerprints(3), fingerprints(3));
    }

    @Test
    void shouldRunUnderAnotherSchedulerSeed() throws InterruptedException {
        assertEquals(configs().size(), fingerprints(4).size());
    }

    @Test
    void shouldKeepTheWallClockOnHostThreads() throws InterruptedException {
        ObjectBenchmarkConfig stalled = new ObjectBenchmarkConfig(ObjectKind.QUEUE, ImplKind.WAITFREE, 1, 2,
                Duration.ofMillis(200), true, 16, 64, 16L << 20, 7);
        List<String> notes = new ArrayList<>();
        long before = System.nanoTime();
        List<ObjectRun> runs = ObjectRunner.run(() -> SimFabrics.connectx5(SimTime.HOST), List.of(stalled), 0, notes, SimTime.HOST);
        long wall = System.nanoTime() - before;
        ObjectBenchmarkResult r = runs.getFirst().result();
        assertTrue(r.ops() > 0, "operations on host threads");
        assertTrue(r.elapsedNanos() >= stalled.duration().toNanos() && r.elapsedNanos() <= wall,
                "elapsed " + r.elapsedNanos() + " ns of the wall clock, within the call's " + wall);
        // the stall is measured on the wall clock too (how long it lasts depends on the host's load: not asserted)
        assertTrue(r.stallNanos() > 0 && r.stallNanos() <= r.elapsedNanos(),
                "the stall, " + r.stallNanos() + " ns, is wall-clock time within the run's " + r.elapsedNanos());
        assertTrue(notes.stream().noneMatch(n -> n.contains("virtual")), notes.toString());
        assertNull(SimTime.HOST.label());
    }
}
