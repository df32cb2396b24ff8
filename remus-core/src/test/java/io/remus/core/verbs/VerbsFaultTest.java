package io.remus.core.verbs;

import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.RemusException;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.verbs.testing.DeviceTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Faults on the verbs fabric that the simulator injects and a device produces for real. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VerbsFaultTest {
    @DeviceTest
    void shouldThrowTypedErrorWithinBoundWhenPeerNodeIsClosedUnderIt() {
        var verbs = Fabrics.verbs().findFirst().orElseThrow().getPayload();
        try (TestCluster c = new TestCluster(verbs, SimOptions.defaults(), 2, b -> b.operationTimeout(Duration.ofSeconds(20)));
             ComputeThread t = c.thread(0)) {
            long w = RemotePtr.offset(t.segmentBase(1, 1), 4096);
            assertEquals(0, t.fetchAndAdd(w, 1));
            c.node(1).close();
            assertThrows(RemusException.class, () -> t.fetchAndAdd(w, 1),
                    "a closed peer's QPs are gone: the transport gives up or the wait times out");
            long local = RemotePtr.offset(t.segmentBase(0, 1), 4096);
            assertEquals(0, t.fetchAndAdd(local, 1), "QPs to other nodes keep working");
        }
    }

    @DeviceTest
    void shouldRejectBeforeNativeCodeWhenFabricArgumentsAreBad() {
        try (VerbsFabric fabric = VerbsFabric.open(io.remus.verbs.testing.DeviceTests.deviceName())) {
            var node = fabric.open(0);
            var cq = node.createCompletionQueue(8);
            assertThrows(BadArgumentException.class, () -> node.connect(5, cq, 4, Duration.ofMinutes(1)), "unknown peer");
            assertThrows(BadArgumentException.class, () -> node.connect(0, cq, 0, Duration.ofMinutes(1)), "zero depth");
            assertThrows(BadArgumentException.class, () -> node.createCompletionQueue(0));
            assertThrows(BadArgumentException.class, () -> node.allocate(0));
            assertThrows(BadArgumentException.class, () -> fabric.open(-1));
            assertThrows(RemusException.class, () -> VerbsFabric.open("no-such-device"));
        }
    }
}
