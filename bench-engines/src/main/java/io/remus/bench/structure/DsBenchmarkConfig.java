package io.remus.bench.structure;

import io.remus.alock.kind.LockKind;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.ds.map.RemoteHashMap;

import java.time.Duration;
import java.util.Objects;

/**
 * What {@link DsBenchmark} runs: Remus' integer-set microbenchmark, or on the hash map one of YCSB's
 * workloads.
 *
 * <p><b>The intset mix</b> (Remus' {@code benchmark/intset_test.h}): each operation picks a key
 * uniformly from {@code keyLb..keyUb} (both included), or zipfian with {@code zipfTheta > 0}, and is an
 * insert with probability {@code insertPercent}, a remove with {@code removePercent}, else a lookup.
 * Before the run the workers insert {@code prefillPercent} of the key range, evenly spaced.
 *
 * <p><b>YCSB</b> ({@code ycsb} not null, hash map only): every key of the range is loaded first
 * ({@code prefillPercent} is not used), the mix is the workload's, updates and inserts write values of
 * {@code valueBytes}; keys are zipfian with {@code zipfTheta} (YCSB's 0.99 when the caller passes 0).
 *
 * @param structure      the structure, on node 0
 * @param lock           the lazy list's lock (ignored by the other structures); not null
 * @param nodes          cluster nodes, each a memory and a compute node, 1..{@value #MAX_NODES}
 * @param threadsPerNode workers per node that runs workers, 1..{@value #MAX_THREADS}
 * @param homeWorkers    whether node 0, where the structure lives, runs workers too (its reads take the CPU
 *                       path and its RDMA counts are lower); false needs 2 nodes or more
 * @param duration       how long the workers run, or null to run {@code opsPerThread} each; 10 ms..1 h
 * @param opsPerThread   operations per worker when {@code duration} is null (at least 1), else 0
 * @param prefillPercent percent of the key range inserted before the run, 0..100
 * @param insertPercent  percent of inserts, 0..100
 * @param removePercent  percent of removes, 0..100 - {@code insertPercent}
 * @param keyLb          the smallest key, at least 0
 * @param keyUb          the largest key: {@code keyUb - keyLb < }{@value #MAX_KEYS}
 * @param zipfTheta      0 for uniform keys, else the zipfian constant in (0, 1)
 * @param ycsb           a YCSB workload for the hash map, or null for the intset mix
 * @param valueBytes     the hash map's values, 0..{@value #MAX_VALUE_BYTES}
 * @param segmentBytes   each node's segment: 1 MiB..1 GiB
 * @param seed           the seed of the workers' random choices
 */
public record DsBenchmarkConfig(StructureKind structure, LockKind lock, int nodes, int threadsPerNode,
                                boolean homeWorkers, Duration duration, long opsPerThread, int prefillPercent,
                                int insertPercent, int removePercent, long keyLb, long keyUb, double zipfTheta,
                                Ycsb ycsb, int valueBytes, long segmentBytes, long seed) {
    /** The most nodes of a run. */
    public static final int MAX_NODES = 64;
    /** The most workers per node (each takes a slot of the epoch reclaimer's announcement table). */
    public static final int MAX_THREADS = 32;
    /** The most keys of the key range. */
    public static final long MAX_KEYS = 1L << 24;
    /** The largest hash-map value. */
    public static final int MAX_VALUE_BYTES = 4096;
    /** YCSB's zipfian constant, used with {@code ycsb} when {@code zipfTheta} is 0. */
    public static final double YCSB_THETA = 0.99;

    /**
     * Validates the configuration.
     *
     * @throws NullPointerException when {@code structure} or {@code lock} is null
     * @throws BadArgumentException naming the value when one is out of range or two do not go together
     */
    public DsBenchmarkConfig {
        Objects.requireNonNull(structure, "structure");
        Objects.requireNonNull(lock, "lock");
        check(nodes >= 1 && nodes <= MAX_NODES, "nodes must be 1.." + MAX_NODES + ", got " + nodes);
        check(threadsPerNode >= 1 && threadsPerNode <= MAX_THREADS,
                "threadsPerNode must be 1.." + MAX_THREADS + ", got " + threadsPerNode);
        check(homeWorkers || nodes >= 2, "without workers on node 0 the run needs 2 nodes or more, got " + nodes);
        if (duration != null) {
            check(duration.compareTo(Duration.ofMillis(10)) >= 0 && duration.compareTo(Duration.ofHours(1)) <= 0
                            && duration.compareTo(Timeouts.MAX_FINITE) <= 0,
                    "duration must be 10 ms..1 h, got " + duration);
            check(opsPerThread == 0, "give a duration or an operation count, not both (got " + duration + " and "
                    + opsPerThread + " operations)");
        } else {
            check(opsPerThread >= 1, "opsPerThread must be at least 1 without a duration, got " + opsPerThread);
        }
        check(prefillPercent >= 0 && prefillPercent <= 100, "prefillPercent must be 0..100, got " + prefillPercent);
        check(insertPercent >= 0 && insertPercent <= 100, "insertPercent must be 0..100, got " + insertPercent);
        check(removePercent >= 0 && removePercent <= 100 - insertPercent,
                "removePercent must be 0..100 - insertPercent (" + (100 - insertPercent) + "), got " + removePercent);
        check(keyLb >= 0, "keyLb must be at least 0, got " + keyLb);
        check(keyUb >= keyLb && keyUb - keyLb < MAX_KEYS,
                "keyUb must be keyLb (" + keyLb + ") .. keyLb + " + (MAX_KEYS - 1) + ", got " + keyUb);
        check(zipfTheta == 0 || (zipfTheta > 0 && zipfTheta < 1), "zipfTheta must be 0 (uniform) or in (0, 1), got "
                + zipfTheta);
        check(ycsb == null || structure == StructureKind.HASH_MAP,
                "a YCSB workload runs on the hash map only, got " + structure.flagName());
        check(valueBytes >= 0 && valueBytes <= MAX_VALUE_BYTES,
                "valueBytes must be 0.." + MAX_VALUE_BYTES + ", got " + valueBytes);
        check(segmentBytes >= 1L << 20 && segmentBytes <= 1L << 30, "segmentBytes must be 1 MiB..1 GiB, got "
                + segmentBytes);
    }

    /**
     * Remus' defaults on a structure: 8192 operations per thread, 50 % prefill, 50 % inserts, 50 % removes
     * (so no lookups), keys 0..1024, uniform; here with ALock, one node of 1 thread, 64-byte values, 64 MiB
     * segments, seed 1.
     *
     * @param structure the structure
     * @return the configuration
     */
    public static DsBenchmarkConfig remusDefaults(StructureKind structure) {
        return new DsBenchmarkConfig(structure, LockKind.ALOCK, 1, 1, true, null, 8192, 50, 50, 50, 0, 1024, 0, null,
                64, 64L << 20, 1);
    }

    /** {@return keys in the range} */
    public long keys() {
        return keyUb - keyLb + 1;
    }

    /** {@return the workers of the run, all nodes together} */
    public int workers() {
        return workerNodes() * threadsPerNode;
    }

    /** {@return the first node that runs workers: 0, or 1 without home workers} */
    public int firstWorkerNode() {
        return homeWorkers ? 0 : 1;
    }

    /** {@return how many nodes run workers} */
    public int workerNodes() {
        return nodes - firstWorkerNode();
    }

    /** {@return the keys inserted before the run: every key with YCSB, else {@code prefillPercent} of the range} */
    public long prefillKeys() {
        return ycsb != null ? keys() : keys() * prefillPercent / 100;
    }

    /** {@return the zipfian constant the keys follow, 0 for uniform} */
    public double effectiveTheta() {
        return ycsb != null && zipfTheta == 0 ? YCSB_THETA : zipfTheta;
    }

    /**
     * The hash map's buckets: at least twice as many slots as the keys it may hold (the key range, plus
     * YCSB D's inserts: all of an operation-count run's, or four times the range in a duration run), a
     * power of two, at most {@link RemoteHashMap#MAX_BUCKETS}.
     *
     * @return the bucket count
     */
    public int mapBuckets() {
        long inserts = 0;
        if (ycsb != null && ycsb.insertPercent() > 0) {
            inserts = duration == null ? opsPerThread * workers() * ycsb.insertPercent() / 100 + workers() : 4 * keys();
        }
        long slots = 2 * (keys() + inserts);
        long buckets = Long.highestOneBit(Math.max(2, (slots + RemoteHashMap.SLOTS_PER_BUCKET - 1)
                / RemoteHashMap.SLOTS_PER_BUCKET) * 2 - 1);
        return (int) Math.min(buckets, Integer.highestOneBit(RemoteHashMap.MAX_BUCKETS));
    }

    /** {@return a label: the structure, with its lock for the lazy list and the YCSB workload for the map} */
    public String label() {
        return structure.flagName() + (structure == StructureKind.LAZY_LIST ? "/" + lock.cliName() : "")
                + (ycsb != null ? "/ycsb-" + ycsb.name().toLowerCase(java.util.Locale.ROOT) : "");
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new BadArgumentException("bad data structure benchmark configuration: " + message);
        }
    }
}
