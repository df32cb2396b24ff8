package io.remus.core.rpc;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RpcPingPong}: every call measured, sorted latencies, two WRITE_WITH_IMMEDIATEs per call, typed errors. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RpcPingPongTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void shouldMeasureEveryCallWithTwoWritesWithImmediatePerCall() throws InterruptedException {
        for (int payload : new int[] {0, 8, RpcEndpoint.MAX_PAYLOAD}) {
            try (Fabric fabric = new SimFabric(SimOptions.defaults())) {
                RpcPingPong.Result r = RpcPingPong.run(fabric, 200, 20, payload, WAIT);
                assertEquals(200, r.calls());
                assertEquals(payload, r.payloadBytes());
                assertEquals(2.0, r.writesWithImmediatePerCall(), 1e-9, "a request and a response per call");
                for (int i = 1; i < r.calls(); i++) {
                    assertTrue(r.nanos()[i - 1] <= r.nanos()[i], "sorted");
                }
                assertTrue(r.quantileNanos(0) > 0);
                assertEquals(r.nanos()[r.calls() - 1], r.quantileNanos(1));
                assertEquals(r.nanos()[99], r.quantileNanos(0.5), "nearest rank");
                assertTrue(r.meanNanos() >= r.quantileNanos(0));
            }
        }
    }

    @Test
    void shouldRefuseBadCountsAndSizesNamingTheValue() {
        try (Fabric fabric = new SimFabric(SimOptions.defaults())) {
            assertTrue(assertThrows(BadArgumentException.class, () -> RpcPingPong.run(fabric, 0, 0, 8, WAIT))
                    .getMessage().contains("got 0"));
            assertTrue(assertThrows(BadArgumentException.class, () -> RpcPingPong.run(fabric, 1, -1, 8, WAIT))
                    .getMessage().contains("got -1"));
            assertTrue(assertThrows(BadArgumentException.class, () -> RpcPingPong.run(fabric, 1, 0, 257, WAIT))
                    .getMessage().contains("got 257"));
        }
        RpcPingPong.Result one = new RpcPingPong.Result(8, new long[] {5}, 2);
        assertTrue(assertThrows(BadArgumentException.class, () -> one.quantileNanos(1.5)).getMessage().contains("1.5"));
    }
}
