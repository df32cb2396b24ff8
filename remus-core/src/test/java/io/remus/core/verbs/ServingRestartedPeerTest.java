package io.remus.core.verbs;

import io.remus.core.config.ClusterConfig;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.verbs.testing.DeviceAddress;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A serving node releases the rdma_cm connections of a requester process that died (killed, no
 * cleanup) and serves the restarted requester on fresh connections.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ServingRestartedPeerTest {
    private static final int OPS_PER_LANE = 50;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(4);
    private static final long RELEASE_WAIT_NANOS = Duration.ofSeconds(60).toNanos();

    @DeviceTest
    void shouldReleaseDeadRequesterConnectionsAndServeRestartedOne() throws InterruptedException {
        String device = DeviceTests.deviceName();
        String host = DeviceAddress.ipv4(device);
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        ClusterConfig config = ClusterConfig.builder().nodes(List.of(host + ":" + port, host + ":" + (port + 1))).build();
        try (VerbsFabric fabric = VerbsFabric.open(VerbsFabricOptions.cluster(device, config, Duration.ofSeconds(90)))) {
            VerbsNode n0 = (VerbsNode) fabric.open(0);
            RegisteredMemory m0 = n0.allocate(4096);
            n0.publish(m0);
            int idle = n0.servingQueuePairs();
            for (int life = 1; life <= 2; life++) {
                ChildJvm.Result r;
                try (ChildJvm child = ChildJvm.start(RestartingRequesterMain.class, device, host, Integer.toString(port),
                        Integer.toString(OPS_PER_LANE))) {
                    r = child.await(CHILD_TIMEOUT);
                }
                assertTrue(r.output().contains("HALTING"), "requester " + life + " did not reach its halt:\n" + r.output());
                assertEquals(137, r.exitCode());
                assertEquals(2L * OPS_PER_LANE * life, m0.segment().get(JAVA_LONG, 0));
                long deadline = System.nanoTime() + RELEASE_WAIT_NANOS;
                while (n0.servingQueuePairs() > idle && System.nanoTime() - deadline < 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                }
                assertEquals(idle, n0.servingQueuePairs(), "serving queue pairs of requester " + life + " after it died");
            }
        }
    }
}
