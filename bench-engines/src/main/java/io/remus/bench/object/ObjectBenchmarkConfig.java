package io.remus.bench.object;

import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What {@link ObjectBenchmark} runs.
 *
 * @param object         the object
 * @param impl           its implementation
 * @param nodes          cluster nodes in this JVM, each a memory and a compute node, 1..{@value #MAX_NODES};
 *                       the object lives on node 0
 * @param threadsPerNode workers per node, 1..{@value #MAX_THREADS}
 * @param duration       how long the workers run: 10 ms..1 h
 * @param stall          whether worker 0 (on node 0) stalls in the middle of an operation for half of the
 *                       run, from a quarter of it on (see {@link ObjectBenchmark})
 * @param elements       the queue's or stack's element capacity, 1..{@value #MAX_ELEMENTS}
 * @param valueBytes     the register's value and each table row: 8..{@value #MAX_VALUE_BYTES}, a multiple of 8
 * @param segmentBytes   each node's segment: 1 MiB..1 GiB
 * @param seed           the seed of the workers' random choices
 */
public record ObjectBenchmarkConfig(ObjectKind object, ImplKind impl, int nodes, int threadsPerNode, Duration duration,
                                    boolean stall, int elements, int valueBytes, long segmentBytes, long seed) {
    /** The most nodes of a run. */
    public static final int MAX_NODES = 16;
    /** The most workers per node. */
    public static final int MAX_THREADS = 32;
    /** The most elements of a queue or stack (its state must fit the thread's buffer twice). */
    public static final int MAX_ELEMENTS = 1024;
    /** The largest register value or table row. */
    public static final int MAX_VALUE_BYTES = 256;

    /**
     * Validates the configuration.
     *
     * @throws NullPointerException when {@code object}, {@code impl} or {@code duration} is null
     * @throws BadArgumentException naming the value when one is out of range
     */
    public ObjectBenchmarkConfig {
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(impl, "impl");
        Objects.requireNonNull(duration, "duration");
        check(nodes >= 1 && nodes <= MAX_NODES, "nodes must be 1.." + MAX_NODES + ", got " + nodes);
        check(threadsPerNode >= 1 && threadsPerNode <= MAX_THREADS,
                "threadsPerNode must be 1.." + MAX_THREADS + ", got " + threadsPerNode);
        check(duration.compareTo(Duration.ofMillis(10)) >= 0 && duration.compareTo(Duration.ofHours(1)) <= 0,
                "duration must be 10 ms..1 h, got " + duration);
        check(!stall || nodes * threadsPerNode >= 2, "a stall needs 2 workers or more: one stalls, the others run");
        check(elements >= 1 && elements <= MAX_ELEMENTS, "elements must be 1.." + MAX_ELEMENTS + ", got " + elements);
        check(valueBytes >= 8 && valueBytes <= MAX_VALUE_BYTES && valueBytes % 8 == 0,
                "valueBytes must be 8.." + MAX_VALUE_BYTES + " and a multiple of 8, got " + valueBytes);
        check(segmentBytes >= 1L << 20 && segmentBytes <= 1L << 30, "segmentBytes must be 1 MiB..1 GiB, got " + segmentBytes);
    }

    /**
     * A run with defaults for the rest: 64 elements, 64-byte values, 256 MiB segments, seed 1.
     *
     * @param object         the object
     * @param impl           its implementation
     * @param nodes          nodes
     * @param threadsPerNode workers per node
     * @param duration       how long
     * @param stall          whether worker 0 stalls
     * @return the configuration
     */
    public static ObjectBenchmarkConfig of(ObjectKind object, ImplKind impl, int nodes, int threadsPerNode,
                                           Duration duration, boolean stall) {
        return new ObjectBenchmarkConfig(object, impl, nodes, threadsPerNode, duration, stall, 64, 64, 256L << 20, 1);
    }

    /** {@return the workers of the run, all nodes together} */
    public int workers() {
        return nodes * threadsPerNode;
    }

    /** {@return when the stalled worker stops, from the start of the run: a quarter of the duration} */
    public Duration stallStart() {
        return duration.dividedBy(4);
    }

    /** {@return how long it stays stopped: half of the duration} */
    public Duration stallLength() {
        return duration.dividedBy(2);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new BadArgumentException("bad object benchmark configuration: " + message);
        }
    }

    /**
     * One unreported run per object and implementation before the measured ones, so the JIT has compiled their
     * paths: in the order they first appear, without the stall, with the next seed.
     *
     * @param configs the measured runs
     * @param warmup  how long each warm-up runs
     * @return the warm-up runs
     */
    public static List<ObjectBenchmarkConfig> warmUps(List<ObjectBenchmarkConfig> configs, Duration warmup) {
        List<ObjectBenchmarkConfig> out = new ArrayList<>();
        for (ObjectBenchmarkConfig c : configs) {
            ObjectBenchmarkConfig w = new ObjectBenchmarkConfig(c.object(), c.impl(), c.nodes(), c.threadsPerNode(), warmup,
                    false, c.elements(), c.valueBytes(), c.segmentBytes(), c.seed() + 1);
            if (!out.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }
}
