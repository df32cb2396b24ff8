package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.tools.RemusRun;
import io.remus.verbs.Device;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On a host with a real device ({@link DeviceTests#deviceName()}): a device or port that does not
 * exist is an error before anything waits for a peer, and the default picks verbs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExplicitDeviceRequestDeviceTest {
    @DeviceTest
    void shouldFailNamingThePortWhenTheDeviceHasNoSuchPort() {
        String device = DeviceTests.deviceName();
        RemusRun run = RemusRun.of(() -> FabricChoice.detect(Device::list), "bench", "read-lat", "-d", device, "-i", "99",
                "--timeout", "30");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().startsWith("remus: -i 99: device " + device + " has port"), run.err());
    }

    @DeviceTest
    void shouldFailNamingTheDeviceWhenItDoesNotExist() {
        RemusRun run = RemusRun.of(() -> FabricChoice.detect(Device::list), "bench", "read-lat", "-d", "nosuchdev",
                "--timeout", "30");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().startsWith("remus: no RDMA device named 'nosuchdev'"), run.err());
    }

    @DeviceTest
    void shouldChooseVerbsByDefaultWhenTheHostListsADevice() {
        FabricChoice c = FabricChoice.detect(Device::list);
        assertEquals(io.remus.bench.perftest.FabricKind.VERBS, c.kind(), c.reason());
    }
}
