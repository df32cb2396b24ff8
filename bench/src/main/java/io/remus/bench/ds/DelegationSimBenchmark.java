package io.remus.bench.ds;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.ds.delegate.PendingApply;
import io.remus.ds.delegate.Trust;
import io.remus.ds.delegate.Trustee;
import io.remus.ds.delegate.TrusteeClient;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Software cost of one delegated request ({@link Trust}, {@link Trustee}) on a two-node simulated cluster
 * with no injected latency, everything on the benchmark's thread: the client stages the request
 * ({@link Trust#applyAsync}), flushes it, the trustee serves one pass ({@link Trustee#serveOnce()}) and the
 * client awaits the response. The trustee is on node 1; the remote client on node 0 (2 WRITEs there,
 * 2 back, executed inside {@code post} by the simulator), the local one on node 1 (CPU stores and loads
 * only). Word requests run a fetch-and-add; payload requests copy their bytes into the response. The data
 * path should allocate nothing: run with {@code -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DelegationSimBenchmark {
    private static final int ADD = 0;
    private static final int ECHO = 1;
    private static final int PAYLOAD = 1024;
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    /** The property: one word. */
    static final class Cell {
        long value;
    }

    private SimFabric fabric;
    private RemusNode[] nodes;
    private ComputeThread trusteeThread;
    private ComputeThread remoteThread;
    private ComputeThread localThread;
    private Trustee<Cell> trustee;
    private Trust<Cell> remote;
    private Trust<Cell> local;
    private final MemorySegment request64 = MemorySegment.ofArray(new byte[64]);
    private final MemorySegment request1024 = MemorySegment.ofArray(new byte[PAYLOAD]);
    private final MemorySegment response = MemorySegment.ofArray(new byte[PAYLOAD]);

    /** Starts the two-node cluster, the trustee and both clients. */
    @Setup(Level.Trial)
    public void setUp() {
        fabric = new SimFabric(SimOptions.defaults());
        ClusterConfig config = ClusterConfig.builder().nodeCount(2)
                .memoryNodes(new NodeRange(0, 1)).computeNodes(new NodeRange(0, 1))
                .segmentSize(4 << 20).segmentCount(1).bufferSizePerThread(16384)
                .operationTimeout(Duration.ofSeconds(10)).build();
        nodes = new RemusNode[] {RemusNode.start(fabric, config.withNodeId(0)), RemusNode.start(fabric, config.withNodeId(1))};
        trusteeThread = nodes[1].newComputeThread();
        remoteThread = nodes[0].newComputeThread();
        localThread = nodes[1].newComputeThread();
        trustee = Trustee.create(trusteeThread, 2, 1, PAYLOAD);
        trustee.register(ADD, (Cell cell, long delta) -> {
            long old = cell.value;
            cell.value = old + delta;
            return old;
        });
        trustee.register(ECHO, (Cell cell, MemorySegment in, MemorySegment out) -> {
            MemorySegment.copy(in, 0, out, 0, in.byteSize());
            return (int) in.byteSize();
        });
        int id = trustee.entrust(new Cell());
        remote = TrusteeClient.connect(remoteThread, trustee.ptr()).trust(id);
        local = TrusteeClient.connect(localThread, trustee.ptr()).trust(id);
    }

    /** Closes the trustee, the compute threads, the nodes and the fabric. */
    @TearDown(Level.Trial)
    public void tearDown() {
        trustee.close();
        localThread.close();
        remoteThread.close();
        trusteeThread.close();
        for (RemusNode node : nodes) {
            node.close();
        }
        fabric.close();
    }

    private long serve(Trust<Cell> trust, PendingApply pending) {
        trust.client().flush();
        trustee.serveOnce();
        return pending.await(PATIENCE);
    }

    /** @return the old value of a fetch-and-add delegated from node 0 */
    @Benchmark
    public long wordRemote() {
        return serve(remote, remote.applyAsync(ADD, 1));
    }

    /** @return the old value of a fetch-and-add delegated from the trustee's node */
    @Benchmark
    public long wordLocal() {
        return serve(local, local.applyAsync(ADD, 1));
    }

    /** @return the response length of a 64-byte echo delegated from node 0 */
    @Benchmark
    public long payload64Remote() {
        return serve(remote, remote.applyAsync(ECHO, request64, response));
    }

    /** @return the response length of a 1024-byte echo delegated from node 0 */
    @Benchmark
    public long payload1024Remote() {
        return serve(remote, remote.applyAsync(ECHO, request1024, response));
    }

    /** @return the response length of a 64-byte echo delegated from the trustee's node */
    @Benchmark
    public long payload64Local() {
        return serve(local, local.applyAsync(ECHO, request64, response));
    }
}
