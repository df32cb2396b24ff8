package io.remus.bench.rpc;

import io.remus.core.fabric.FabricNode;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Software cost of one call of remus-core's RPC endpoint ({@link RpcEndpoint}, LITE's style) on the
 * simulated fabric with no injected latency, caller and callee on the benchmark's thread: the endpoint
 * calls its own node, so the WRITE_WITH_IMMEDIATE of the request, serving it, and the one of the response
 * all happen inside the call. Three ways of calling: {@link RpcEndpoint#callLong} to a
 * {@link RpcEndpoint#registerLong} method, the segment call to an {@link io.remus.core.rpc.RpcSegmentMethod}
 * echo, and the {@code byte[]} call to the same echo (which allocates its arrays). Run with
 * {@code -prof gc}: the first two should allocate nothing.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RpcSimBenchmark {
    private static final int PLUS_ONE = 1;
    private static final int ECHO = 2;
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    /** Bytes of the echoed payload. */
    @Param({"8", "256"})
    public int payloadBytes;

    private SimFabric fabric;
    private RpcEndpoint endpoint;
    private MemorySegment request;
    private final MemorySegment response = MemorySegment.ofArray(new byte[RpcEndpoint.MAX_PAYLOAD]);
    private byte[] requestBytes;
    private long next;

    /** Opens the node, its endpoint connected to itself, and both methods. */
    @Setup(Level.Trial)
    public void setUp() {
        fabric = new SimFabric(SimOptions.defaults());
        FabricNode node = fabric.open(0);
        endpoint = RpcEndpoint.create(node, 1, 4);
        endpoint.connect(endpoint.rings(), PATIENCE);
        endpoint.registerLong(PLUS_ONE, x -> x + 1);
        endpoint.register(ECHO, (int caller, MemorySegment in, int length, MemorySegment out) -> {
            MemorySegment.copy(in, 0, out, 0, length);
            return length;
        });
        request = MemorySegment.ofArray(new byte[payloadBytes]);
        requestBytes = new byte[payloadBytes];
    }

    /** Closes the fabric, and with it the node. */
    @TearDown(Level.Trial)
    public void tearDown() {
        endpoint.close();
        fabric.close();
    }

    /** @return the result of one {@code callLong} */
    @Benchmark
    public long callLong() {
        return endpoint.callLong(0, PLUS_ONE, next++, PATIENCE);
    }

    /** @return the echoed length of one segment call */
    @Benchmark
    public int callSegment() {
        return endpoint.call(0, ECHO, request, response, PATIENCE);
    }

    /** @return the echoed bytes of one {@code byte[]} call */
    @Benchmark
    public byte[] callBytes() {
        return endpoint.call(0, ECHO, requestBytes, PATIENCE);
    }
}
