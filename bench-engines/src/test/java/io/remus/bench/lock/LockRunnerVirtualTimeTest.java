package io.remus.bench.lock;

import io.remus.bench.engines.SimFabrics;
import io.remus.bench.engines.SimTime;
import io.remus.alock.kind.LockKind;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.VirtualTimeOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LockRunner} in virtual time ({@link SimTime#virtual}): each lock kind runs 2 nodes x 2 workers for 2 ms of
 * virtual time; the same seed gives the same counts, another seed other counts.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LockRunnerVirtualTimeTest {
    private static final Duration VIRTUAL_DURATION = Duration.ofMillis(2);

    /** {@return per lock kind in order: operations, local operations, virtual nanoseconds of the measured phase} */
    private static List<String> counts(long seed) throws Exception {
        SimTime time = SimTime.virtual(SimCostModel.CONNECTX5, seed);
        List<LockBenchmarkConfig> configs = new ArrayList<>();
        for (LockKind kind : LockKind.values()) {
            configs.add(new LockBenchmarkConfig(kind, 2, 2, 0.9, 20, 5, 20, VIRTUAL_DURATION, seed));
        }
        List<String> notes = new ArrayList<>();
        List<LockRun> runs = LockRunner.runAll("sim",
                () -> SimFabrics.connectx5(time),
                configs, 0.5, notes, run -> { }, time);
        List<String> counts = new ArrayList<>();
        for (LockRun run : runs) {
            assertTrue(run.operations() > 0, run.config().kind() + " completed no pair");
            assertTrue(run.seconds() >= VIRTUAL_DURATION.toNanos() / 1e9, "measured phase of " + run.seconds() + " s");
            assertEquals(run.operations(), run.latency().count(), "every pair in the histogram");
            counts.add(run.config().kind() + " " + run.operations() + " " + run.localOperations() + " "
                    + Math.round(run.seconds() * 1e9) + " " + run.latency());
        }
        assertEquals(List.of("no warm-up: virtual-time figures do not depend on the host's JIT"), notes);
        return counts;
    }

    @Test
    void shouldGiveTheSameCountsPerLockKindFromTheSameSeed() throws Exception {
        assertEquals(counts(3), counts(3));
    }

    @Test
    void shouldGiveOtherCountsFromAnotherSeed() throws Exception {
        assertNotEquals(counts(3), counts(4));
    }

    @Test
    void shouldLabelVirtualTimeWithModelCpuChargeAndSeed() {
        assertEquals("virtual time, model connectx5, "
                        + VirtualTimeOptions.seed(9).withCpu(SimCostModel.CONNECTX5).describeCpu() + ", seed 9",
                SimTime.virtual(SimCostModel.CONNECTX5, 9).label());
        assertNull(SimTime.HOST.label());
    }

    @Test
    void shouldRefuseVirtualTimeWithAModelThatChargesNothingNamingIt() {
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> SimTime.virtual(SimCostModel.NONE, 1));
        assertTrue(e.getMessage().contains("model none"), e.getMessage());
    }
}
