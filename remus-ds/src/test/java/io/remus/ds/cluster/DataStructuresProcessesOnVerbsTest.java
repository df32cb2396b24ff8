package io.remus.ds.cluster;

import io.remus.core.testing.ProcessFabric;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DataStructuresClusterTest}'s scenario with three processes on one guest's rxe device
 * ({@link DataStructuresProcessMain}), one per node: the lock-free list, the lazy list, the hash map and the
 * MPMC queue homed on different processes, every process's histories merged on node 0 and checked (the sets
 * and the map key by key, the queue whole and for exactly-once delivery), and the SPSC ring buffer with its
 * consumer in process 2 and its producer in process 0, its messages asserted exact and in order.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class DataStructuresProcessesOnVerbsTest {
    private static final int NODES = 3;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(8);

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldCheckAsLinearizableWhenThreeProcessesShareEveryStructure() throws InterruptedException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(DataStructuresProcessMain.class, fabric.argument(), Integer.toString(i), Integer.toString(NODES),
                        Integer.toString(port)));
            }
            for (int i = 0; i < NODES; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                System.out.println("---- node " + i + "\n" + r.output());
                assertTrue(r.succeeded() && r.output().contains("OK node " + i), "node " + i + " failed:\n" + r.output());
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
