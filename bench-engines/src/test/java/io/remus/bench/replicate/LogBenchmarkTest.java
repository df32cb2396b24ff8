package io.remus.bench.replicate;

import io.remus.bench.engines.SimTime;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimCostModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replicated-log benchmark's engine: its refusals, typed and naming the value, and its counts once the log
 * wraps (each look at the followers' applied counts one READ per follower and one round trip).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LogBenchmarkTest {
    private static final SimTime VIRTUAL = SimTime.virtual(SimCostModel.CONNECTX5, 3);

    @Test
    void shouldRefuseTheHostsClockNamingIt() {
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> LogBenchmark.run(new LogBenchmarkConfig(3, 64, 10, 8), SimCostModel.CONNECTX5, SimTime.HOST));
        assertEquals("the replicated-log benchmark runs in virtual time only, got the host's clock", e.getMessage());
    }

    @Test
    void shouldRefuseABadRunNamingTheFlagAndValue() {
        assertEquals("--replicas must be an odd group of 2f + 1 members, 3..15, got 6",
                assertThrows(BadArgumentException.class, () -> new LogBenchmarkConfig(6, 64, 10, 8)).getMessage());
        assertEquals("--replicas must be an odd group of 2f + 1 members, 3..15, got 1",
                assertThrows(BadArgumentException.class, () -> new LogBenchmarkConfig(1, 64, 10, 8)).getMessage());
        assertEquals("--entry-bytes must be at least 1, got 0",
                assertThrows(BadArgumentException.class, () -> new LogBenchmarkConfig(3, 0, 10, 8)).getMessage());
        assertEquals("--log-slots must be 2..65536, got 65537",
                assertThrows(BadArgumentException.class, () -> new LogBenchmarkConfig(3, 8, 10, 65537)).getMessage());
        assertEquals("--appends must be 1..10000000, got 10000001",
                assertThrows(BadArgumentException.class, () -> new LogBenchmarkConfig(3, 8, 10_000_001, 8)).getMessage());
        assertTrue(assertThrows(BadArgumentException.class, () -> new LogBenchmarkConfig(3, 8, 10, 65536)).getMessage()
                .endsWith("the largest entry with 65536 slots is 0 bytes"));
    }

    @Test
    void shouldFitTheLargestEntryThatItNamesInOneAllocation() {
        for (int slots : new int[] {2, 8, 256, 977}) {
            int max = LogBenchmarkConfig.maxEntryBytes(slots);
            new LogBenchmarkConfig(3, max, 1, slots);
            assertThrows(BadArgumentException.class, () -> new LogBenchmarkConfig(3, max + 8, 1, slots));
        }
    }

    @Test
    void shouldCountOneReadPerFollowerAndOneRoundTripPerLookOnceTheLogWraps() throws InterruptedException {
        LogBenchmarkResult r = LogBenchmark.run(new LogBenchmarkConfig(5, 100, 60, 8), SimCostModel.CONNECTX5, VIRTUAL);
        long looks = r.roundTrips() - 60;
        assertTrue(looks >= 1 && looks <= 60 - 8, "looks at the followers' applied counts after the wrap: " + looks);
        assertEquals(4 * 60, r.posted()[Opcode.WRITE.ordinal()], "one WRITE per follower per append");
        assertEquals(4 * looks, r.posted()[Opcode.READ.ordinal()], "one READ per follower per look");
        assertEquals(8 * 4 * looks, r.bytesRead(), "each READ an 8-byte applied count");
        assertEquals(60 * 4 * LogBenchmarkConfig.slotBytes(100), r.bytesWritten(), "one slot of 152 bytes per WRITE");
        assertEquals(60, r.committed());
        assertEquals(60, r.minApplied());
        assertEquals(60, r.latency().count());
        assertTrue(r.latency().min() >= SimCostModel.CONNECTX5.readWriteRoundTripNanos(), "an append takes a round trip");
        LogBenchmarkResult again = LogBenchmark.run(new LogBenchmarkConfig(5, 100, 60, 8), SimCostModel.CONNECTX5, VIRTUAL);
        assertEquals(r.latency(), again.latency(), "the same seed, the same latencies");
        assertEquals(r.elapsedNanos(), again.elapsedNanos());
        assertArrayEquals(r.posted(), again.posted());
        assertEquals(r.roundTrips(), again.roundTrips());
    }
}
