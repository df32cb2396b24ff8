package io.remus.alock;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;

import java.time.Duration;
import java.util.function.Function;

/**
 * The lock tests' use of remus-core's {@link TestCluster}: small thread buffers, a 30 s bound on
 * {@link TestCluster#runOnThreads}, and zeroed lock words.
 */
public final class LockClusters {
    private LockClusters() {
    }

    /**
     * @param make           the fabric under test
     * @param options        simulator knobs
     * @param n              node count
     * @param threadsPerNode compute threads per node
     * @return a cluster of {@code n} nodes, each a memory node and a compute node
     */
    public static TestCluster start(Function<SimOptions, Fabric> make, SimOptions options, int n, int threadsPerNode) {
        return new TestCluster(make, options, n, b -> b.bufferSizePerThread(4096).threadsPerNode(threadsPerNode),
                Duration.ofSeconds(30));
    }

    /**
     * Allocates a zeroed lock word from a short-lived thread of node 0.
     *
     * @param cluster the cluster
     * @param home    the word's home node
     * @return the word
     */
    public static long lockWord(TestCluster cluster, int home) {
        try (ComputeThread t = cluster.thread(0)) {
            return LockWord.allocate(t, t.allocator(), home);
        }
    }
}
