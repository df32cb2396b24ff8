package io.remus.example;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.Root;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;

/**
 * The README's remus-core example (the README quotes {@link #run()} up to the read from node 1),
 * compiled against the modules' descriptors: two nodes on the simulated fabric, a counter on node
 * 1 written, incremented and read by a compute thread on node 0, then published as the root.
 */
public final class ReadmeExample {

    /**
     * What the example saw.
     *
     * @param before   what the fetch-and-add returned (41)
     * @param now      what the read after it returned (42)
     * @param counter  the counter's remote pointer (on node 1)
     * @param fromRoot the counter's value read by a thread on node 1 through the published root (42)
     */
    public record Outcome(long before, long now, long counter, long fromRoot) {
    }

    private ReadmeExample() {
    }

    /**
     * Runs the example.
     *
     * @return what it saw
     */
    public static Outcome run() {
        ClusterConfig config = ClusterConfig.builder().nodeCount(2).build();
        try (SimFabric fabric = new SimFabric();
             RemusNode node0 = RemusNode.start(fabric, config.withNodeId(0));
             RemusNode node1 = RemusNode.start(fabric, config.withNodeId(1));
             ComputeThread t = node0.newComputeThread()) {
            long counter = t.allocator().allocate(8, 1);  // 8 bytes on node 1
            t.write(counter, 41);                         // RDMA WRITE
            long before = t.fetchAndAdd(counter, 1);      // RDMA FAA, returns 41
            long now = t.read(counter);                   // RDMA READ, 42
            new Root(t).set(counter);                     // publish it as the cluster's root
            try (ComputeThread t1 = node1.newComputeThread()) {
                return new Outcome(before, now, counter, t1.read(new Root(t1).get()));
            }
        }
    }

    /**
     * Runs the example and prints what it saw and in which module each part ran.
     *
     * @param args none
     */
    public static void main(String[] args) {
        Outcome outcome = run();
        System.out.println("fetchAndAdd returned " + outcome.before() + ", read returned " + outcome.now()
                + ", node 1 read " + outcome.fromRoot() + " through the root");
        System.out.println("modules: " + ReadmeExample.class.getModule() + ", " + ComputeThread.class.getModule());
    }
}
