package io.remus.bench.pointer;

import io.remus.core.memory.RemotePtr;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * Cost of {@link RemotePtr} arithmetic: packing a node id and an address into one word (with its
 * range checks), unpacking both parts, and moving a pointer by an offset (with its overflow check).
 * The inputs are fields, not constants, so the JIT cannot fold the work away; results are returned
 * so that JMH consumes them. Every operation should allocate nothing.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RemotePtrBenchmark {
    private int node = 7;
    private long address = 0x1234_5678_9ABCL;
    private long delta = 4096;
    private long ptr = RemotePtr.of(7, 0x1234_5678_9ABCL);

    /** @return a pointer packed from a node id and an address */
    @Benchmark
    public long pack() {
        return RemotePtr.of(node, address);
    }

    /** @return the node id of a pointer */
    @Benchmark
    public int unpackNode() {
        return RemotePtr.node(ptr);
    }

    /** @return the address part of a pointer */
    @Benchmark
    public long unpackAddress() {
        return RemotePtr.address(ptr);
    }

    /** @return the pointer moved by an offset */
    @Benchmark
    public long offset() {
        return RemotePtr.offset(ptr, delta);
    }

    /** @return node and address of a freshly packed and offset pointer, combined */
    @Benchmark
    public long packOffsetUnpack() {
        long p = RemotePtr.offset(RemotePtr.of(node, address), delta);
        return RemotePtr.node(p) ^ RemotePtr.address(p);
    }
}
