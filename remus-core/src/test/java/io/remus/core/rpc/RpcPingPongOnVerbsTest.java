package io.remus.core.rpc;

import io.remus.core.fabric.Fabric;
import io.remus.core.verbs.VerbsFabric;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link RpcPingPong} (what {@code remus bench rpc-lat} runs) on the verbs fabric of a real device: the
 * calls are measured, and the endpoints and the fabric close cleanly afterwards, though each node's
 * receive completion queue still serves the queue pair its peer connected.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RpcPingPongOnVerbsTest {
    @DeviceTest
    void shouldMeasureEveryCallAndCloseCleanlyOnVerbs() throws InterruptedException {
        try (Fabric fabric = VerbsFabric.open(DeviceTests.deviceName())) {
            RpcPingPong.Result r = RpcPingPong.run(fabric, 100, 10, 8, Duration.ofSeconds(30));
            assertEquals(100, r.calls());
            assertEquals(2.0, r.writesWithImmediatePerCall(), 1e-9, "a request and a response per call");
        }
    }
}
