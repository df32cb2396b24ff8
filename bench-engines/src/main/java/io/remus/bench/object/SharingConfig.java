package io.remus.bench.object;

import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@link SharingExperiment} runs.
 *
 * @param ways           the implementations, each on its own counters, run one after the other; distinct
 * @param nodes          cluster nodes in this JVM, each a memory and a compute node, 1..{@value #MAX_NODES}
 * @param threadsPerNode workers per node, 1..{@value #MAX_THREADS}
 * @param counters       how many counters, 1..{@value #MAX_COUNTERS}; counter {@code i} lives on node
 *                       {@code i % nodes}
 * @param zipfTheta      0 for uniform picks, else the zipfian constant in (0, 1)
 * @param pLocal         the fraction of picks that choose a counter on the worker's own node, in [0, 1], or
 *                       NaN to pick over all counters regardless of their home
 * @param duration       how long each way's workers run: 10 ms..1 h
 * @param segmentBytes   each node's segment: 1 MiB..1 GiB
 * @param seed           the seed of the workers' random choices
 */
public record SharingConfig(List<SharingWay> ways, int nodes, int threadsPerNode, int counters, double zipfTheta,
                            double pLocal, Duration duration, long segmentBytes, long seed) {
    /** The most nodes of a run. */
    public static final int MAX_NODES = 16;
    /** The most workers per node. */
    public static final int MAX_THREADS = 32;
    /** The most counters. */
    public static final int MAX_COUNTERS = 1 << 20;

    /**
     * Validates the configuration.
     *
     * @throws NullPointerException when {@code ways} or {@code duration} is null
     * @throws BadArgumentException naming the value when one is out of range
     */
    public SharingConfig {
        Objects.requireNonNull(ways, "ways");
        Objects.requireNonNull(duration, "duration");
        ways = List.copyOf(ways);
        check(!ways.isEmpty(), "ways must name at least one way");
        check(ways.stream().distinct().count() == ways.size(), "ways must be distinct, got " + ways);
        check(nodes >= 1 && nodes <= MAX_NODES, "nodes must be 1.." + MAX_NODES + ", got " + nodes);
        check(threadsPerNode >= 1 && threadsPerNode <= MAX_THREADS,
                "threadsPerNode must be 1.." + MAX_THREADS + ", got " + threadsPerNode);
        check(counters >= 1 && counters <= MAX_COUNTERS, "counters must be 1.." + MAX_COUNTERS + ", got " + counters);
        check(zipfTheta >= 0 && zipfTheta < 1, "zipfTheta must be in [0, 1), got " + zipfTheta);
        check(Double.isNaN(pLocal) || (pLocal >= 0 && pLocal <= 1), "pLocal must be in [0, 1], got " + pLocal);
        check(Double.isNaN(pLocal) || counters >= nodes,
                "pLocal needs a counter on every node: counters " + counters + " < nodes " + nodes);
        check(duration.compareTo(Duration.ofMillis(10)) >= 0 && duration.compareTo(Duration.ofHours(1)) <= 0,
                "duration must be 10 ms..1 h, got " + duration);
        check(segmentBytes >= 1L << 20 && segmentBytes <= 1L << 30, "segmentBytes must be 1 MiB..1 GiB, got " + segmentBytes);
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
     * @return the report's notes on this configuration and the ways: the counters, their homes, the picks, what
     *         the delegated way's RDMA includes, and what every counter was checked against
     */
    public List<String> notes() {
        return List.of(counters + " counters, counter i on node i mod " + nodes + "; picks "
                        + (zipfTheta == 0 ? "uniform" : "zipfian, theta " + zipfTheta)
                        + (usesPLocal() ? ", p-local " + pLocal : ", over all counters"),
                "delegated: one trustee per node on its own thread; its response WRITEs count with the way's RDMA",
                "check: every counter of every way ended at exactly the increments applied to it");
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new BadArgumentException(message);
        }
    }
}
