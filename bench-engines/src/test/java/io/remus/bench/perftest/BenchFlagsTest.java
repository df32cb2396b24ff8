package io.remus.bench.perftest;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchFlagsTest {
    private static BenchFlags flags(BenchTest test, Integer size, Long iterations, Double seconds, Integer txDepth,
                                    int queuePairs) {
        return new BenchFlags(test, size, false, 1, iterations, null, seconds, null, txDepth, queuePairs, null, null,
                512, 14, null, 1, null, AtomicType.FETCH_AND_ADD, 10);
    }

    private static String message(Runnable r) {
        return assertThrows(BadArgumentException.class, r::run).getMessage();
    }

    @Test
    void shouldNameTheFlagAndValueWhenAFlagIsOutOfRange() {
        assertEquals("-D must be a whole number of seconds, got 1.5", message(() -> BenchFlags.wholeSeconds(1.5)));
        assertNull(BenchFlags.wholeSeconds(null));
        assertEquals("-s must be 1.." + BenchFlags.MAX_SIZE + ", got 0",
                message(() -> flags(BenchTest.WRITE_BW, 0, null, null, null, 1).check()));
        assertEquals("-D and -n exclude each other",
                message(() -> flags(BenchTest.WRITE_BW, null, 5L, 2.0, null, 1).check()));
        assertEquals("latency tests run one work request at a time on one QP (-q 1, -t 1), as in perftest",
                message(() -> flags(BenchTest.READ_LAT, null, null, null, null, 2).check()));
        assertEquals("atomic tests use 8-byte messages, got -s 16",
                message(() -> flags(BenchTest.ATOMIC_BW, 16, null, null, null, 1).check()));
        flags(BenchTest.WRITE_BW, 4096, 100L, null, 8, 2).check();
    }

    @Test
    void shouldCapTheTxDepthAtTheIterationsAndSayItWhenTheRunIsShorter() {
        List<String> notes = new ArrayList<>();
        BenchSettings s = flags(BenchTest.WRITE_BW, 65536, 4L, null, 128, 1).settings(notes);
        assertEquals(4, s.txDepth());
        assertEquals(1, s.cqModeration(), "one size above 8192 bytes: a completion per work request");
        assertEquals(List.of("TX depth 128 capped at -n 4 (as perftest: no more work requests in flight than the run "
                + "has)"), notes);
        BenchSettings timed = flags(BenchTest.WRITE_BW, null, null, 4.0, null, 1).settings(notes);
        assertEquals(Duration.ofSeconds(1), timed.margin(), "a quarter of -D, at most 2 s");
        assertEquals(1, notes.size());
    }

    @Test
    void shouldRefuseOnTheSimulatorOnlyWhenARunPassesItsBounds() {
        BenchFlags wide = flags(BenchTest.WRITE_BW, 1 << 20, 100_000L, null, 16384, 8);
        BenchSettings s = wide.settings(new ArrayList<>());
        assertTrue(message(() -> wide.checkSimulatorBounds(s, FabricKind.SIM)).startsWith("-q 8 x -t 16384 = 131072 "),
                "more work requests in flight than the simulator holds");
        wide.checkSimulatorBounds(s, FabricKind.VERBS);
        assertTrue(message(() -> BenchFlags.checkBuffers(s, FabricKind.SIM, 1L << 20)).contains("MiB of buffers (both sides"));
        BenchFlags.checkBuffers(s, FabricKind.SIM, -1);
    }

    @Test
    void shouldNameTheDeviceAndItsPortsWhenThePortDoesNotExist() {
        BenchFailedException e = assertThrows(BenchFailedException.class, () -> BenchFlags.checkPort(2, "rxe0", 1));
        assertEquals("-i 2: device rxe0 has port 1 only", e.getMessage());
        e = assertThrows(BenchFailedException.class, () -> BenchFlags.checkPort(99, null, 2));
        assertEquals("-i 99: the first RDMA device has ports 1..2", e.getMessage());
        BenchFlags.checkPort(2, "mlx5_0", 2);
    }
}
