package io.remus.core.example;

import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.memory.RemoteAllocator;
import io.remus.core.memory.Root;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The README's remus-core example, kept compiling and passing. */
class ReadmeExampleTest {

    @Test
    void shouldRunTheReadmeExampleWhenOnTheSimulator() {
        // --- README example starts
        ClusterConfig config = ClusterConfig.builder().nodeCount(2).build();
        try (SimFabric fabric = new SimFabric();
             RemusNode node0 = RemusNode.start(fabric, config.withNodeId(0));
             RemusNode node1 = RemusNode.start(fabric, config.withNodeId(1));
             ComputeThread t = node0.newComputeThread()) {
            long counter = new RemoteAllocator(t).allocate(8, 1);  // 8 bytes on node 1
            t.write(counter, 41);                                  // RDMA WRITE
            long before = t.fetchAndAdd(counter, 1);               // RDMA FAA, returns 41
            long now = t.read(counter);                            // RDMA READ, 42
            new Root(t).set(counter);                              // publish it as the cluster's root
            // --- README example ends
            assertEquals(41, before);
            assertEquals(42, now);
            assertEquals(1, RemotePtr.node(counter));
            assertEquals(counter, new Root(t).get());
            try (ComputeThread t1 = node1.newComputeThread()) {
                assertEquals(42, t1.read(new Root(t1).get()));
            }
        }
    }
}
