package io.remus.tools.cli;

import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code remus bench rpc-lat}: a run on the simulator in perftest's columns, and usage errors naming the bad value. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RpcLatBenchCommandTest {
    @Test
    void shouldPrintOneRowOfLatenciesWithTwoWritesWithImmediatePerCall() {
        RemusRun r = RemusRun.of("bench", "rpc-lat", "--fabric", "sim", "-n", "300", "-s", "64", "--sim-cost", "connectx5");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("remus bench rpc-lat on sim"), r.out());
        assertTrue(r.out().contains("sim cost model connectx5"), r.out());
        assertTrue(r.out().contains("t_typical[usec]"), r.out());
        String row = r.out().lines().filter(l -> l.startsWith(" 64 ")).findFirst().orElseThrow(() -> new AssertionError(r.out()));
        assertTrue(row.contains(" 300 "), row);
        assertTrue(row.trim().endsWith("2.00"), "a request and a response per call: " + row);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "-n=0|-n must be 1..100000000, got 0",
            "-s=257|-s must be 0..256 bytes, got 257",
            "--warmup=-1|--warmup must be 0..100000000, got -1",
            "--sim-cost=cx9|cx9",
            "--fabric=ethernet|ethernet"})
    void shouldExitWithUsageNamingTheBadValue(String flag, String message) {
        RemusRun r = RemusRun.of("bench", "rpc-lat", "--fabric", "sim", flag);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("Usage: remus bench rpc-lat"), r.err());
    }
}
