package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.tools.RemusRun;
import io.remus.bench.perftest.FabricKind;
import io.remus.verbs.Device;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DevicesCommandTest {
    @Test
    void shouldSayNoRdmaDevicesWhenTheHostHasNone() {
        Assumptions.assumeTrue(Device.rdmaStackAvailable(), "this host has no RDMA stack");
        Assumptions.assumeTrue(Device.list().isEmpty(), "this host has RDMA devices");
        RemusRun run = RemusRun.of("devices");
        assertEquals(0, run.exit(), run.err());
        assertEquals("no RDMA devices", run.out().strip());
        FabricChoice host = FabricChoice.detect(Device::list);
        assertEquals(FabricKind.SIM, host.kind(), host.reason());
        assertEquals("no RDMA device found", host.why());
    }

    @Test
    void shouldFailNamingTheDevicesWhenTheAskedDeviceDoesNotExist() {
        picocli.CommandLine cmd = new picocli.CommandLine(new DevicesCommand(List::of));
        cmd.setExecutionExceptionHandler((e, c, p) -> {
            c.getErr().println(e.getMessage());
            return 1;
        });
        RemusRun run = RemusRun.ofCommand(cmd, "-d", "mlx5_9");
        assertEquals(1, run.exit());
        assertTrue(run.err().contains("no RDMA device called 'mlx5_9'"), run.err());
    }

    @Test
    void shouldReportTheSimFabricAndWhyWhenTheHostHasNoDevice() {
        RemusRun run = RemusRun.of("bench", "read-lat", "-n", "50", "--json");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("no RDMA devices"), run.out());
    }
}
