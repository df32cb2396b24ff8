package io.remus.bench.object;

import io.remus.bench.structure.Ycsb;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.delegate.Trustee;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@link KvExperiment} runs.
 *
 * @param ways           the implementations, each on its own copy of the keys, run one after the other; distinct
 * @param workloads      YCSB workloads to run each way under: {@link Ycsb#A} and {@link Ycsb#B} (reads and
 *                       updates only); distinct
 * @param nodes          cluster nodes in this JVM, each a memory and a compute node, 1..{@value #MAX_NODES}
 * @param threadsPerNode workers per node, 1..{@value #MAX_THREADS}
 * @param keys           how many keys, {@code nodes}..{@value #MAX_KEYS}; key {@code k} lives on node {@code k % nodes}
 * @param zipfTheta      0 for uniform picks, else the zipfian constant in (0, 1) (YCSB's is 0.99)
 * @param pLocal         the fraction of picks that choose a key on the worker's own node, in [0, 1], or
 *                       NaN to pick over all keys regardless of their home
 * @param duration       how long each way and workload runs: 10 ms..1 h
 * @param segmentBytes   each node's segment: 1 MiB..1 GiB
 * @param seed           the seed of the workers' random choices
 * @param valueBytes     each value's size: a multiple of 8 in 8..{@value #MAX_VALUE_BYTES} (a trustee's largest
 *                       payload), and a node's values, {@code ceil(keys / nodes) * valueBytes}, at most
 *                       {@link SizeClasses#MAX} (the ALock way's value array is one allocation)
 */
public record KvConfig(List<KvWay> ways, List<Ycsb> workloads, int nodes, int threadsPerNode, int keys,
                       double zipfTheta, double pLocal, Duration duration, long segmentBytes, long seed, int valueBytes) {
    /** The most nodes of a run. */
    public static final int MAX_NODES = 16;
    /** The most workers per node. */
    public static final int MAX_THREADS = 32;
    /** The most keys: one node's hash map and value array must fit one allocation with room to spare. */
    public static final int MAX_KEYS = 1 << 16;
    /** The largest value: the largest payload of a trustee. */
    public static final int MAX_VALUE_BYTES = Trustee.MAX_PAYLOAD_BYTES;

    /** A configuration with 8-byte values (one word, as the delegated way's argument and result). */
    public KvConfig(List<KvWay> ways, List<Ycsb> workloads, int nodes, int threadsPerNode, int keys,
                    double zipfTheta, double pLocal, Duration duration, long segmentBytes, long seed) {
        this(ways, workloads, nodes, threadsPerNode, keys, zipfTheta, pLocal, duration, segmentBytes, seed, Long.BYTES);
    }

    /**
     * Validates the configuration.
     *
     * @throws NullPointerException when {@code ways}, {@code workloads} or {@code duration} is null
     * @throws BadArgumentException naming the value when one is out of range
     */
    public KvConfig {
        Objects.requireNonNull(ways, "ways");
        Objects.requireNonNull(workloads, "workloads");
        Objects.requireNonNull(duration, "duration");
        ways = List.copyOf(ways);
        workloads = List.copyOf(workloads);
        check(!ways.isEmpty(), "ways must name at least one way");
        check(ways.stream().distinct().count() == ways.size(), "ways must be distinct, got " + ways);
        check(!workloads.isEmpty(), "workloads must name at least one workload");
        check(workloads.stream().distinct().count() == workloads.size(), "workloads must be distinct, got " + workloads);
        for (Ycsb y : workloads) {
            check(y == Ycsb.A || y == Ycsb.B, "workloads must be A or B (reads and updates only), got " + y);
        }
        check(nodes >= 1 && nodes <= MAX_NODES, "nodes must be 1.." + MAX_NODES + ", got " + nodes);
        check(threadsPerNode >= 1 && threadsPerNode <= MAX_THREADS,
                "threadsPerNode must be 1.." + MAX_THREADS + ", got " + threadsPerNode);
        check(keys >= 1 && keys <= MAX_KEYS, "keys must be 1.." + MAX_KEYS + ", got " + keys);
        check(keys >= nodes, "every node needs a key: keys " + keys + " < nodes " + nodes);
        check(zipfTheta >= 0 && zipfTheta < 1, "zipfTheta must be in [0, 1), got " + zipfTheta);
        check(Double.isNaN(pLocal) || (pLocal >= 0 && pLocal <= 1), "pLocal must be in [0, 1], got " + pLocal);
        check(duration.compareTo(Duration.ofMillis(10)) >= 0 && duration.compareTo(Duration.ofHours(1)) <= 0,
                "duration must be 10 ms..1 h, got " + duration);
        check(segmentBytes >= 1L << 20 && segmentBytes <= 1L << 30, "segmentBytes must be 1 MiB..1 GiB, got " + segmentBytes);
        check(valueBytes >= Long.BYTES && valueBytes <= MAX_VALUE_BYTES && valueBytes % Long.BYTES == 0,
                "valueBytes must be a multiple of 8 in 8.." + MAX_VALUE_BYTES + ", got " + valueBytes);
        long perNode = (long) ((keys + nodes - 1) / nodes) * valueBytes;
        check(perNode <= SizeClasses.MAX, "a node's values must fit " + SizeClasses.MAX + " bytes, got "
                + (keys + nodes - 1) / nodes + " keys x valueBytes " + valueBytes + " = " + perNode);
    }

    /** {@return the words of a value: {@code valueBytes / 8}} */
    public int valueWords() {
        return valueBytes / Long.BYTES;
    }

    /** {@return workers in all: {@code nodes * threadsPerNode}} */
    public int workers() {
        return nodes * threadsPerNode;
    }

    /** {@return whether the picks follow {@link #pLocal()}} */
    public boolean usesPLocal() {
        return !Double.isNaN(pLocal);
    }

    /**
     * @return the report's notes on this configuration and the ways: the keys, their homes and values, the
     *         picks, what each way's RDMA and round trips include, and what every read was checked against
     */
    public List<String> notes() {
        return List.of(keys + " keys, key k on node k mod " + nodes + ", " + valueBytes + "-byte values ("
                        + (valueBytes == Long.BYTES ? "the delegated way's argument word" : "the delegated way's payloads")
                        + "); picks " + (zipfTheta == 0 ? "uniform" : "zipfian, theta " + zipfTheta)
                        + (usesPLocal() ? ", p-local " + pLocal : ", over all keys"),
                "delegated: one trustee per node on its own thread; its response WRITEs count with the way's RDMA",
                "alock: one ALock per key over an array of values on the key's node",
                "one-sided: rtt/up includes memory management (allocating the new block, the epoch reclaimer), shown as mem/up",
                "check: every read returned a whole value written for its key, never older than the reader's own update");
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new BadArgumentException(message);
        }
    }
}
