package io.remus.core.testing;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/** Test fixture: {@code n} nodes in one JVM, each a memory node and a compute node. */
public final class TestCluster implements AutoCloseable {
    private final Fabric fabric;
    private final RemusNode[] nodes;
    private final Duration threadBound;
    private final ClusterConfig base;

    /**
     * A cluster whose {@link #runOnThreads} waits up to 60 s.
     *
     * @param make    the fabric under test
     * @param options simulator knobs
     * @param n       node count
     * @param tweak   changes to the default test configuration
     */
    public TestCluster(Function<SimOptions, Fabric> make, SimOptions options, int n, Consumer<ClusterConfig.Builder> tweak) {
        this(make, options, n, tweak, Duration.ofSeconds(60));
    }

    /**
     * @param make        the fabric under test
     * @param options     simulator knobs
     * @param n           node count
     * @param tweak       changes to the default test configuration
     * @param threadBound how long {@link #runOnThreads} waits for its threads
     */
    public TestCluster(Function<SimOptions, Fabric> make, SimOptions options, int n, Consumer<ClusterConfig.Builder> tweak,
                       Duration threadBound) {
        this.threadBound = threadBound;
        this.fabric = make.apply(options);
        ClusterConfig.Builder b = ClusterConfig.builder().nodeCount(n)
                .memoryNodes(new NodeRange(0, n - 1)).computeNodes(new NodeRange(0, n - 1))
                .segmentSize(64 << 10).segmentCount(2).bufferSizePerThread(8192)
                .operationTimeout(Duration.ofSeconds(60));
        tweak.accept(b);
        this.base = b.build();
        nodes = new RemusNode[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = RemusNode.start(fabric, base.withNodeId(i));
        }
    }

    /**
     * Kills node {@code i}'s process and starts it again with new memory: {@link io.remus.core.sim.SimFabric#crash}
     * then a fresh {@link RemusNode} of the same configuration, which {@link #node} returns from now on. The old
     * node's compute threads must no longer be used (their posts fail).
     *
     * @param i node id, on a simulated fabric
     * @return the new node
     */
    public RemusNode restart(int i) {
        ((io.remus.core.sim.SimFabric) fabric).crash(i);
        nodes[i] = RemusNode.start(fabric, base.withNodeId(i));
        return nodes[i];
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

    /** @param i node id @param plane its queue pairs' plane @return a new compute thread on node i and that plane */
    public ComputeThread thread(int i, int plane) {
        return nodes[i].newComputeThread(plane);
    }

    /**
     * The CPU view of a node's memory, for tests that observe words from outside the fabric.
     *
     * @param ptr    a pointer
     * @param length bytes
     * @return the bytes, as the home node's CPU sees them
     */
    public MemorySegment raw(long ptr, long length) {
        int node = RemotePtr.node(ptr);
        long address = RemotePtr.address(ptr);
        for (var m : nodes[node].memoryNode().orElseThrow().segments()) {
            if (m.contains(address, length)) {
                return m.segment().asSlice(address - m.address(), length);
            }
        }
        throw new AssertionError("not in a segment: " + RemotePtr.toString(ptr));
    }

    /**
     * Allocates {@code bytes} zeroed bytes on {@code node}, through a short-lived thread of node 0.
     *
     * @param node  a node
     * @param bytes size
     * @return the block
     */
    public long block(int node, int bytes) {
        try (ComputeThread t = thread(0)) {
            long p = t.allocator().allocate(bytes, node);
            t.write(p, MemorySegment.ofArray(new byte[bytes]));
            return p;
        }
    }

    /**
     * Runs {@code work} on one platform thread per entry of {@code nodeOfThread}, each with its own
     * compute thread, and rethrows the first failure, with the later ones suppressed in it (each
     * naming its thread). Bounded by the cluster's thread bound (60 s
     * unless the constructor says otherwise).
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
                    failures.add(new AssertionError(Thread.currentThread().getName() + " failed", e));
                }
            }, "compute-" + t + "@node" + nodeOfThread[t]);
            th.setDaemon(true);
            threads.add(th);
        }
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + threadBound.toNanos();
        for (Thread th : threads) {
            th.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (th.isAlive()) {
                throw new AssertionError(th.getName() + " did not finish within " + threadBound.toSeconds() + " s");
            }
        }
        if (!failures.isEmpty()) {
            AssertionError e = new AssertionError(failures.size() + " compute thread(s) failed, the first: "
                    + failures.get(0).getMessage(), failures.get(0).getCause());
            failures.stream().skip(1).forEach(e::addSuppressed); // what the others were doing, in the order they failed
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
