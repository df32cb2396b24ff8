package io.remus.tools.cli;

import io.remus.tools.RemusRun;
import io.remus.verbs.Device;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On a host with a real device: a device or port that does not exist is an error before anything
 * waits for a peer, and the default picks verbs.
 */
@Tag("device")
@EnabledIfEnvironmentVariable(named = "REMUS_TEST_DEVICE", matches = ".+",
        disabledReason = "no RDMA device: set REMUS_TEST_DEVICE=<name>, see softroce/README.md")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExplicitDeviceRequestDeviceTest {
    private static final String DEVICE = System.getenv("REMUS_TEST_DEVICE");

    @Test
    void shouldFailNamingThePortWhenTheDeviceHasNoSuchPort() {
        RemusRun run = RemusRun.of(() -> FabricChoice.detect(Device::list), "bench", "read-lat", "-d", DEVICE, "-i", "99",
                "--timeout", "30");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().startsWith("remus: -i 99: device " + DEVICE + " has port"), run.err());
    }

    @Test
    void shouldFailNamingTheDeviceWhenItDoesNotExist() {
        RemusRun run = RemusRun.of(() -> FabricChoice.detect(Device::list), "bench", "read-lat", "-d", "nosuchdev",
                "--timeout", "30");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().startsWith("remus: no RDMA device named 'nosuchdev'"), run.err());
    }

    @Test
    void shouldChooseVerbsByDefaultWhenTheHostListsADevice() {
        FabricChoice c = FabricChoice.detect(Device::list);
        assertEquals(io.remus.tools.bench.FabricKind.VERBS, c.kind(), c.reason());
    }
}
