package io.remus.examples;

import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;
import io.remus.ds.object.RemoteCounter;
import io.remus.ds.object.WaitFreeQueue;
import io.remus.ds.context.WorkerContext;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Wait-free objects (after ROMe, SPAA 2024) used by three threads on two nodes: a {@link RemoteCounter} (one
 * RDMA fetch-and-add per increment) and a {@link WaitFreeQueue} (a universal construction: announce, help,
 * publish a new state by one compare-and-swap). Every call finishes in a bounded number of steps whatever the
 * other threads do, a stalled one included.
 *
 * <p>Run (after {@code bin/mvn -q -pl examples/tour -am package -DskipTests}, see examples/tour/README.md):
 * {@code java --enable-native-access=ALL-UNNAMED -cp "examples/tour/target/classes:examples/tour/target/lib/*" io.remus.examples.WaitFreeObjects}
 */
public final class WaitFreeObjects {
    /** The threads' nodes. */
    static final int[] NODES = {0, 1, 0};
    /** Increments, and enqueued values, per thread. */
    static final int PER_THREAD = 20;

    /**
     * What the example saw.
     *
     * @param counter        the counter's value at the end (60)
     * @param distinctOlds   distinct values the increments returned (60: each increment saw its own)
     * @param dequeued       values dequeued at the end (60)
     * @param fifoPerThread  whether each thread's values came out in the order it enqueued them (true)
     */
    public record Outcome(long counter, int distinctOlds, int dequeued, boolean fifoPerThread) {
    }

    private WaitFreeObjects() {
    }

    /**
     * Runs the example and prints what it saw.
     *
     * @param out where to print
     * @return what it saw
     * @throws Exception when a thread failed or did not finish within 30 seconds
     */
    public static Outcome run(PrintStream out) throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodeCount(2).build();
        try (SimFabric fabric = new SimFabric();
             RemusNode node0 = RemusNode.start(fabric, config.withNodeId(0));
             RemusNode node1 = RemusNode.start(fabric, config.withNodeId(1));
             WorkerContext main = WorkerContext.open(node1);
             // Both objects live on memory node 1. The queue's handle count is fixed at creation: this handle and
             // the three threads'. It holds up to 64 values.
             RemoteCounter counter = RemoteCounter.create(main.thread(), 1, 0);
             WaitFreeQueue queue = WaitFreeQueue.create(main.thread(), main.reclaimer(), 1, 1 + NODES.length, 64)) {
            RemusNode[] nodes = {node0, node1};
            long counterPtr = counter.ptr();
            long queuePtr = queue.ptr();

            List<Future<long[]>> threads = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(NODES.length)) {
                for (int i = 0; i < NODES.length; i++) {
                    RemusNode node = nodes[NODES[i]];
                    long id = i;
                    threads.add(pool.submit(() -> work(node, counterPtr, queuePtr, id)));
                }
                Set<Long> olds = new HashSet<>();
                for (Future<long[]> f : threads) {
                    for (long old : f.get(30, TimeUnit.SECONDS)) {
                        olds.add(old);
                    }
                }

                // Drain the queue: dequeue() reports whether it took a value, value() returns it.
                long[] last = {-1, -1, -1};
                boolean fifo = true;
                int dequeued = 0;
                while (queue.dequeue()) {
                    long v = queue.value();
                    int thread = (int) (v / 1000);
                    fifo &= v > last[thread];
                    last[thread] = v;
                    dequeued++;
                }
                long value = counter.read();
                out.println("counter " + value + ", " + olds.size() + " distinct values returned by its increments; "
                        + dequeued + " values dequeued, each thread's in its order: " + fifo);
                counter.destroy();                         // the objects' memory is freed once every handle closed
                queue.destroy();
                return new Outcome(value, olds.size(), dequeued, fifo);
            }
        }
    }

    /** One thread: attaches its own handles, increments and enqueues {@link #PER_THREAD} times. */
    private static long[] work(RemusNode node, long counterPtr, long queuePtr, long id) {
        try (WorkerContext w = WorkerContext.open(node);
             RemoteCounter counter = RemoteCounter.attach(w.thread(), counterPtr);
             WaitFreeQueue queue = WaitFreeQueue.attach(w.thread(), w.reclaimer(), queuePtr)) {
            long[] olds = new long[PER_THREAD];
            for (int i = 0; i < PER_THREAD; i++) {
                olds[i] = counter.fetchAndAdd(1);           // wait-free: one RDMA fetch-and-add
                if (!queue.enqueue(id * 1000 + i)) {        // wait-free; false only when the queue is full
                    throw new IllegalStateException("the queue is full");
                }
            }
            return olds;
        }
    }

    /**
     * Runs the example.
     *
     * @param args none
     * @throws Exception when a thread failed or did not finish in time
     */
    public static void main(String[] args) throws Exception {
        run(System.out);
    }
}
