package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.tools.RemusRun;
import io.remus.verbs.DeviceInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An explicit request the host cannot honour is an error naming it; only the default falls back, and says so. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExplicitFabricRequestTest {
    private static final Supplier<FabricChoice> ONE_DEVICE =
            () -> FabricChoice.detect(() -> List.of(new DeviceInfo("rxe0", 1, 1, 0)));

    @ParameterizedTest
    @ValueSource(strings = {"-d nosuchdev", "-i 99", "10.0.0.99", "-x 3", "-p 19000", "-I 64", "-R", "-u 20",
            "-o 4"})
    void shouldFailNamingTheFlagWhenAVerbsFlagMeetsAHostWithoutDevices(String flag) {
        RemusRun run = RemusRun.of(ToolRun.NO_DEVICE, ("bench read-lat -n 20 " + flag).split(" "));
        assertEquals(1, run.exit(), run.err());
        assertEquals(1, run.errLines().size(), run.err());
        String shown = flag.startsWith("-") ? flag : "server address " + flag;
        assertTrue(run.err().startsWith("remus: " + shown + " needs the verbs fabric, and this host has none: "
                + "no RDMA device found"), run.err());
        assertEquals("", run.out(), "nothing ran");
    }

    @Test
    void shouldFailWhenAClientNamesAServerOnAHostWithoutDevicesInsteadOfSimulatingLocally() {
        RemusRun run = RemusRun.of(ToolRun.NO_DEVICE, "bench", "write-bw", "-n", "20", "192.0.2.1");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("server address 192.0.2.1 needs the verbs fabric"), run.err());
        assertFalse(run.out().contains("sim"), run.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--fabric sim -d mlx5_0", "--fabric sim -i 2", "--fabric sim 10.0.0.1",
            "--fabric sim -x 1", "--fabric sim -R", "--fabric verbs --sim-latency-ns 100",
            "-d mlx5_0 --sim-latency-ns 100", "--fabric verbs --sim-cost connectx5", "-d mlx5_0 --sim-cost none"})
    void shouldExitWithUsageWhenFlagsAskForAnotherFabricThanTheOneGiven(String flags) {
        RemusRun run = RemusRun.of(ONE_DEVICE, ("bench read-lat -n 20 " + flags).split(" "));
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("only"), run.err());
        assertTrue(run.err().contains("Usage: remus bench read-lat"), run.err());
    }

    @Test
    void shouldSayOnStandardErrorWhyWhenTheDefaultFallsBackToTheSimulator() {
        RemusRun run = RemusRun.of(ToolRun.NO_DEVICE, "bench", "read-lat", "-n", "20", "--json");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().startsWith("remus: no RDMA device found: running on the simulator (use --fabric verbs"),
                run.err());
        assertTrue(run.out().contains("default: no RDMA device found"), run.out());
    }

    @Test
    void shouldNotSayAnythingWhenTheSimulatorIsAskedFor() {
        RemusRun run = RemusRun.of(ToolRun.NO_DEVICE, "bench", "read-lat", "-n", "20", "--json", "--fabric", "sim",
                "--no-progress");
        assertEquals(0, run.exit(), run.err());
        assertFalse(run.err().contains("running on the simulator"), run.err());
    }

    @Test
    void shouldRunOnTheSimulatorWithoutAFallbackLineWhenASimFlagIsGiven() {
        RemusRun run = RemusRun.of(ONE_DEVICE, "bench", "read-lat", "-n", "20", "--json", "--sim-latency-ns", "10");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("--sim-latency-ns 10 given"), run.out());
    }

    @Test
    void shouldFailNamingTheDeviceWhenTheLockBenchIsGivenOneOnAHostWithoutDevices() {
        RemusRun run = RemusRun.of(ToolRun.NO_DEVICE, "bench", "lock", "-d", "mlx5_0", "-D", "0.1", "--warmup", "0");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().startsWith("remus: -d mlx5_0 needs the verbs fabric"), run.err());
        RemusRun sim = RemusRun.of(ONE_DEVICE, "bench", "lock", "--fabric", "sim", "-d", "mlx5_0");
        assertEquals(2, sim.exit(), sim.err());
        assertTrue(sim.err().contains("-d mlx5_0: verbs only; this run is on --fabric sim"), sim.err());
    }

    @Test
    void shouldFailNamingTheDeviceWhenTheLoopbackExperimentIsGivenOneOnAHostWithoutDevices() {
        RemusRun run = RemusRun.of(ToolRun.NO_DEVICE, "experiment", "loopback", "-d", "mlx5_0", "-n", "10");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().startsWith("remus: -d mlx5_0 needs the verbs fabric"), run.err());
        assertEquals("", run.out());
    }
}
