package io.remus.tools.cli;

import io.remus.core.sim.SimCostModel;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code remus bench} on the simulator: the latency the cost model injects, duration mode, a bad model name. */
class SimBenchCommandTest {
    @Test
    void shouldPingPongWhenSimulatorInjectsLatency() {
        RemusRun run = RemusRun.of("bench", "write-lat", "--fabric", "sim", "-n", "50", "--sim-latency-ns", "20000");
        assertEquals(0, run.exit(), run.err());
        String row = run.out().lines().filter(l -> l.trim().startsWith("2 ")).findFirst().orElseThrow();
        double minUsec = Double.parseDouble(row.trim().split("\\s+")[2]);
        assertTrue(minUsec >= 10.0, row);
    }

    @Test
    void shouldTakeAtLeastTheModelledRoundTripWhenTheSimulatorHasTheConnectX5CostModel() {
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-n", "50", "--sim-cost", "connectx5");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("sim cost model connectx5"), run.out());
        String row = run.out().lines().filter(l -> l.trim().startsWith("2 ")).findFirst().orElseThrow();
        double minUsec = Double.parseDouble(row.trim().split("\\s+")[2]);
        assertTrue(minUsec >= SimCostModel.CONNECTX5.readWriteRoundTripNanos() / 1000.0, row);
    }

    @Test
    void shouldExitWithUsageNamingTheModelWhenTheCostModelIsUnknown() {
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-n", "5", "--sim-cost", "cx9");
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("cx9") && run.err().contains("connectx5"), run.err());
    }

    @Test
    void shouldListEveryPresetInTheHelpWhenHelpIsAsked() {
        RemusRun run = RemusRun.of("bench", "read-lat", "--help");
        assertEquals(0, run.exit(), run.err());
        String presets = String.join(", ", SimCostModel.PRESETS.stream().map(SimCostModel::name).toList());
        assertTrue(run.out().replaceAll("\\s+", " ").contains("one of " + presets), run.out());
    }

    @Test
    void shouldRunForTheDurationWhenDurationModeIsAsked() {
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-D", "1", "--json");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("\"duration_seconds\":1.000000"), run.out());
        assertTrue(run.out().contains("\"margin_seconds\":0.250000"), run.out());
    }
}
