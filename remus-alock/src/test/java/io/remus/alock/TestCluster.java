package io.remus.alock;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemoteAllocator;
import io.remus.core.sim.SimOptions;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** Test fixture: {@code n} nodes in one JVM, each a memory node and a compute node (remus-core's pattern). */
public final class TestCluster implements AutoCloseable {
    private final Fabric fabric;
    private final RemusNode[] nodes;

    /**
     * @param make           the fabric under test
     * @param options        simulator knobs
     * @param n              node count
     * @param threadsPerNode compute threads per node
     */
    public TestCluster(Function<SimOptions, Fabric> make, SimOptions options, int n, int threadsPerNode) {
        this.fabric = make.apply(options);
        ClusterConfig base = ClusterConfig.builder().nodeCount(n)
                .memoryNodes(new NodeRange(0, n - 1)).computeNodes(new NodeRange(0, n - 1))
                .segmentSize(64 << 10).segmentCount(2).bufferSizePerThread(4096).threadsPerNode(threadsPerNode)
                .operationTimeout(Duration.ofSeconds(60)).build();
        nodes = new RemusNode[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = RemusNode.start(fabric, base.withNodeId(i));
        }
    }

    /** @param i node id @return a new compute thread on node i */
    public ComputeThread thread(int i) {
        return nodes[i].newComputeThread();
    }

    /**
     * The CPU view of a node's memory, for tests that observe words from outside any lock.
     *
     * @param ptr    a pointer
     * @param length bytes
     * @return the bytes, as the home node's CPU sees them
     */
    public MemorySegment raw(long ptr, long length) {
        int node = io.remus.core.RemotePtr.node(ptr);
        long address = io.remus.core.RemotePtr.address(ptr);
        for (var m : nodes[node].memoryNode().orElseThrow().segments()) {
            if (m.contains(address, length)) {
                return m.segment().asSlice(address - m.address(), length);
            }
        }
        throw new AssertionError("not in a segment: " + io.remus.core.RemotePtr.toString(ptr));
    }

    /**
     * Allocates a zeroed lock word (and optionally other blocks) from a short-lived thread of node 0.
     *
     * @param home the word's home node
     * @return the word
     */
    public long lockWord(int home) {
        try (ComputeThread t = thread(0)) {
            return LockWord.allocate(t, new RemoteAllocator(t), home);
        }
    }

    /**
     * Allocates {@code bytes} zeroed bytes on {@code node}.
     *
     * @param node  a node
     * @param bytes size
     * @return the block
     */
    public long block(int node, int bytes) {
        try (ComputeThread t = thread(0)) {
            long p = new RemoteAllocator(t).allocate(bytes, node);
            t.write(p, MemorySegment.ofArray(new byte[bytes]));
            return p;
        }
    }

    /**
     * Runs {@code work} on one platform thread per entry of {@code nodeOfThread}, each with its own
     * compute thread, and rethrows the first failure. Bounded by 30 s.
     */
    public void runOnThreads(int[] nodeOfThread, ThreadWork work) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < nodeOfThread.length; t++) {
            int index = t;
            Thread th = new Thread(() -> {
                try (ComputeThread ct = thread(nodeOfThread[index])) {
                    work.run(index, ct);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "compute-" + t + "@node" + nodeOfThread[t]);
            th.setDaemon(true);
            threads.add(th);
        }
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Thread th : threads) {
            th.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (th.isAlive()) {
                throw new AssertionError(th.getName() + " did not finish within 30 s");
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("a compute thread failed", failures.get(0));
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
