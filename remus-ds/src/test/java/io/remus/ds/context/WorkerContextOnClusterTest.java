package io.remus.ds.context;

import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link WorkerContext#open(RemusCluster)} on a one-node cluster in the simulator. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerContextOnClusterTest {
    private static final int BYTES = 32;

    /** On a cluster node, a worker has a compute thread of its own: closing it leaves the cluster's open. */
    @Test
    void shouldOpenItsOwnThreadOnAClusterAndLeaveTheClustersThreadOpen() {
        try (SimFabric fabric = new SimFabric();
             RemusCluster cluster = RemusCluster.builder().fabric(fabric).args("--nodes=a", "--node-id=0")
                     .joinTimeout(Duration.ofSeconds(30)).join()) {
            ComputeThread main = cluster.computeThread();
            ComputeThread t;
            try (WorkerContext w = WorkerContext.open(cluster)) {
                t = w.thread();
                assertNotSame(main, t);
                long block = t.allocator().allocate(BYTES, 0);
                w.reclaimer().retire(block, BYTES);
            }
            assertTrue(t.isClosed());
            assertFalse(main.isClosed());
        }
    }
}
