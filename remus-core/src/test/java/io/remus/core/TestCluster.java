package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/** Test fixture: {@code n} nodes in one JVM, each a memory node and a compute node. */
public final class TestCluster implements AutoCloseable {
    private final Fabric fabric;
    private final RemusNode[] nodes;

    /**
     * @param make    the fabric under test
     * @param options simulator knobs
     * @param n       node count
     * @param tweak   changes to the default test configuration
     */
    public TestCluster(Function<SimOptions, Fabric> make, SimOptions options, int n, Consumer<ClusterConfig.Builder> tweak) {
        this.fabric = make.apply(options);
        ClusterConfig.Builder b = ClusterConfig.builder().nodeCount(n)
                .memoryNodes(new NodeRange(0, n - 1)).computeNodes(new NodeRange(0, n - 1))
                .segmentSize(64 << 10).segmentCount(2).bufferSizePerThread(8192)
                .operationTimeout(Duration.ofSeconds(60));
        tweak.accept(b);
        ClusterConfig base = b.build();
        nodes = new RemusNode[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = RemusNode.start(fabric, base.withNodeId(i));
        }
    }

    /** @return a three-node cluster with defaults */
    public static TestCluster of(Function<SimOptions, Fabric> make) {
        return new TestCluster(make, SimOptions.defaults(), 3, b -> { });
    }

    /** @return the fabric */
    public Fabric fabric() {
        return fabric;
    }

    /** @param i node id @return the node */
    public RemusNode node(int i) {
        return nodes[i];
    }

    /** @param i node id @return a new compute thread on node i */
    public ComputeThread thread(int i) {
        return nodes[i].newComputeThread();
    }

    /**
     * Runs {@code work} on one platform thread per entry of {@code nodeOfThread}, each with its own
     * compute thread, and rethrows the first failure. Bounded by 60 s.
     */
    public void runOnThreads(int[] nodeOfThread, ThreadWork work) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < nodeOfThread.length; t++) {
            int index = t;
            Thread th = new Thread(() -> {
                try (ComputeThread ct = thread(nodeOfThread[index])) {
                    work.run(index, ct);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "compute-" + t);
            th.setDaemon(true);
            threads.add(th);
        }
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (Thread th : threads) {
            th.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (th.isAlive()) {
                throw new AssertionError(th.getName() + " did not finish within 60 s");
            }
        }
        if (!failures.isEmpty()) {
            AssertionError e = new AssertionError("a compute thread failed", failures.get(0));
            throw e;
        }
    }

    /** Work of one test thread. */
    @FunctionalInterface
    public interface ThreadWork {
        /**
         * @param index  the thread's index
         * @param thread its compute thread
         */
        void run(int index, ComputeThread thread) throws Exception;
    }

    @Override
    public void close() {
        for (RemusNode n : nodes) {
            n.close();
        }
        fabric.close();
    }
}
