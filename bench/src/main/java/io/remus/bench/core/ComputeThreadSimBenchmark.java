package io.remus.bench.core;

import io.remus.core.ComputeThread;
import io.remus.core.DoorbellBatch;
import io.remus.core.RemoteAllocator;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Software cost of {@link ComputeThread} operations on a two-node simulated cluster with no
 * injected latency: what the compute thread adds (argument checks, building the work request,
 * lane choice, handle bookkeeping, completion polling) on top of the simulator's own execution.
 *
 * <p>Node 0 runs the compute thread; the target words live on node 1 (allocated with the
 * {@link RemoteAllocator}, so every operation goes through a queue pair), except
 * {@link #readLocalSync()}, whose word lives on node 0 and takes the CPU path. Each benchmark
 * method is one synchronous operation, one asynchronous operation issued and awaited, or one
 * doorbell batch of 8 work requests executed (posted with one doorbell, last one signalled,
 * awaited). The data path should allocate nothing: run with {@code -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ComputeThreadSimBenchmark {
    private static final int BATCH = 8;

    private SimFabric fabric;
    private RemusNode[] nodes;
    private ComputeThread thread;
    private long remote;
    private long remoteBlock;
    private final long[] blockWords = new long[BATCH];
    private long local;
    private long value;

    /** Starts the two-node cluster and allocates the target words. */
    @Setup(Level.Trial)
    public void setUp() {
        fabric = new SimFabric(SimOptions.defaults());
        ClusterConfig config = ClusterConfig.builder().nodeCount(2)
                .memoryNodes(new NodeRange(0, 1)).computeNodes(new NodeRange(0, 1))
                .segmentSize(1 << 20).segmentCount(1).bufferSizePerThread(8192)
                .wrsPerBatch(BATCH).operationTimeout(Duration.ofSeconds(10)).build();
        nodes = new RemusNode[] {RemusNode.start(fabric, config.withNodeId(0)), RemusNode.start(fabric, config.withNodeId(1))};
        thread = nodes[0].newComputeThread();
        RemoteAllocator allocator = thread.allocator();
        remote = allocator.allocate(8, 1);
        remoteBlock = allocator.allocate(8 * BATCH, 1);
        local = allocator.allocate(8, 0);
        for (int i = 0; i < BATCH; i++) {
            blockWords[i] = RemotePtr.offset(remoteBlock, 8L * i);
        }
    }

    /** Closes the compute thread, the nodes and the fabric. */
    @TearDown(Level.Trial)
    public void tearDown() {
        thread.close();
        for (RemusNode node : nodes) {
            node.close();
        }
        fabric.close();
    }

    /** @return the remote word, read synchronously */
    @Benchmark
    public long readSync() {
        return thread.read(remote);
    }

    /** @return the local word, read synchronously (CPU path, no queue pair) */
    @Benchmark
    public long readLocalSync() {
        return thread.read(local);
    }

    /** Writes the remote word synchronously. */
    @Benchmark
    public void writeSync() {
        thread.write(remote, ++value);
    }

    /** @return the remote word's old value after a synchronous compare-and-swap */
    @Benchmark
    public long compareAndSwapSync() {
        long old = thread.compareAndSwap(remote, value, value + 1);
        value = old + 1;
        return old;
    }

    /** @return the remote word's old value after a synchronous fetch-and-add */
    @Benchmark
    public long fetchAndAddSync() {
        return thread.fetchAndAdd(remote, 1);
    }

    /** @return the remote word, read by an asynchronous read issued and awaited */
    @Benchmark
    public long readAsyncAwait() {
        long handle = thread.readWordAsync(remote, false);
        return thread.await(handle);
    }

    /** @return the remote word's old value after an asynchronous fetch-and-add issued and awaited */
    @Benchmark
    public long fetchAndAddAsyncAwait() {
        long handle = thread.fetchAndAddAsync(remote, 1, false);
        return thread.await(handle);
    }

    /** Reads 8 remote words into the buffer with one doorbell batch of 8 READs. */
    @Benchmark
    public void batchOf8Reads() {
        long[] words = blockWords;
        DoorbellBatch batch = thread.batch();
        for (int i = 0; i < BATCH; i++) {
            batch.read(words[i], 8L * i, 8);
        }
        batch.execute();
    }

    /** Runs one doorbell batch of 2 WRITEs, 2 READs, 2 compare-and-swaps and 2 fetch-and-adds. */
    @Benchmark
    public void batchOf8Mixed() {
        long[] w = blockWords;
        thread.batch()
                .write(w[0], 0, 8).write(w[1], 8, 8)
                .read(w[2], 16, 8).read(w[3], 24, 8)
                .compareAndSwap(w[4], 0, 0, 32).compareAndSwap(w[5], 0, 0, 40)
                .fetchAndAdd(w[6], 1, 48).fetchAndAdd(w[7], 1, 56)
                .execute();
    }
}
