package io.remus.bench.index;

import io.remus.alock.kind.LockKind;
import io.remus.bench.structure.DsBenchmarkConfig;
import io.remus.bench.structure.StructureKind;
import io.remus.bench.structure.Ycsb;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.index.IndexFormat;
import io.remus.ds.replicate.LogLayout;

import java.util.Objects;

/**
 * One run of the index benchmark: {@code shards} shards of {@code replicas} members each on as many simulated nodes
 * (shard {@code s} on nodes {@code s * replicas .. s * replicas + replicas - 1}, its first member leading), and
 * {@code clients} client nodes after them, one client thread each, running YCSB {@code ycsb} over keys
 * {@code 0..keys-1} (8-byte big-endian keys, all loaded before the run) with values of {@code valueBytes}. Validated
 * on construction, each message naming the flag of {@code remus bench index} and the value.
 *
 * @param shards       shards, 1..{@value #MAX_SHARDS}
 * @param replicas     members of each shard's group, {@code 2f + 1}: odd, {@value #MIN_REPLICAS}..{@value #MAX_REPLICAS}
 * @param clients      client nodes, one client thread each, 1..{@value #MAX_CLIENTS}; all nodes together at most
 *                     {@value DsBenchmarkConfig#MAX_NODES}
 * @param ycsb         the workload: A, B or C (D inserts new keys and F reads and writes in one operation, which the
 *                     index does not offer)
 * @param zipfTheta    0 for YCSB's 0.99, else the zipfian constant in (0, 1)
 * @param keys         keys loaded and used, 1..{@value #MAX_KEYS}
 * @param valueBytes   bytes of every value, 1..{@value IndexFormat#MAX_VALUE_BYTES}
 * @param opsPerClient operations per client, 1..{@value #MAX_OPS}
 * @param logSlots     slots of each member's log, 2..{@link #maxLogSlots()}; the log wraps past them
 * @param seed         the seed of the clients' choices (and, in virtual time, the scheduler's)
 */
public record IndexBenchmarkConfig(int shards, int replicas, int clients, Ycsb ycsb, double zipfTheta, long keys,
                                   int valueBytes, long opsPerClient, int logSlots, long seed) {
    /** The smallest group: {@code f = 1}. */
    public static final int MIN_REPLICAS = 3;
    /** The largest group: {@code f = 7}. */
    public static final int MAX_REPLICAS = 15;
    /** The most shards of a run. */
    public static final int MAX_SHARDS = 16;
    /** The most client nodes of a run. */
    public static final int MAX_CLIENTS = 32;
    /** The most keys of a run. */
    public static final long MAX_KEYS = 1L << 20;
    /** The most operations per client. */
    public static final long MAX_OPS = 10_000_000L;
    /** Bytes of every key: a long, big-endian. */
    public static final int KEY_BYTES = 8;

    /**
     * Validates the run.
     *
     * @throws BadArgumentException naming the flag and the value that is out of range, or the node count when
     *                              shards, replicas and clients together exceed it
     */
    public IndexBenchmarkConfig {
        Objects.requireNonNull(ycsb, "ycsb");
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new BadArgumentException("--shards must be 1.." + MAX_SHARDS + ", got " + shards);
        }
        if (replicas < MIN_REPLICAS || replicas > MAX_REPLICAS || replicas % 2 == 0) {
            throw new BadArgumentException("--replicas must be an odd group of 2f + 1 members, " + MIN_REPLICAS + ".."
                    + MAX_REPLICAS + ", got " + replicas);
        }
        if (clients < 1 || clients > MAX_CLIENTS) {
            throw new BadArgumentException("--clients must be 1.." + MAX_CLIENTS + ", got " + clients);
        }
        if ((long) shards * replicas + clients > DsBenchmarkConfig.MAX_NODES) {
            throw new BadArgumentException("--shards " + shards + " x --replicas " + replicas + " + --clients " + clients
                    + " is " + ((long) shards * replicas + clients) + " nodes, more than " + DsBenchmarkConfig.MAX_NODES);
        }
        if (ycsb != Ycsb.A && ycsb != Ycsb.B && ycsb != Ycsb.C) {
            throw new BadArgumentException("--ycsb must be A, B or C for the index (gets and puts of loaded keys), got "
                    + ycsb);
        }
        if (!(zipfTheta == 0 || (zipfTheta > 0 && zipfTheta < 1))) {
            throw new BadArgumentException("--zipf must be 0 (YCSB's 0.99) or in (0, 1), got " + zipfTheta);
        }
        if (keys < 1 || keys > MAX_KEYS) {
            throw new BadArgumentException("--keys must be 1.." + MAX_KEYS + ", got " + keys);
        }
        if (valueBytes < 1 || valueBytes > IndexFormat.MAX_VALUE_BYTES) {
            throw new BadArgumentException("--value-size must be 1.." + IndexFormat.MAX_VALUE_BYTES
                    + " for the index, got " + valueBytes);
        }
        if (opsPerClient < 1 || opsPerClient > MAX_OPS) {
            throw new BadArgumentException("--num-ops must be 1.." + MAX_OPS + ", got " + opsPerClient);
        }
        if (logSlots < 2 || logSlots > maxLogSlots()) {
            throw new BadArgumentException("--log-slots must be 2.." + maxLogSlots() + " for the index (a log of "
                    + slotBytes() + "-byte slots in one allocation of " + SizeClasses.MAX + " bytes), got " + logSlots);
        }
    }

    /** {@return the bytes of one log slot: an entry of up to {@value IndexFormat#MAX_ENTRY_BYTES} bytes with its overhead} */
    public static long slotBytes() {
        return LogLayout.OVERHEAD_BYTES + ((IndexFormat.MAX_ENTRY_BYTES + 7) & ~7L);
    }

    /** {@return the bytes of one member's log of {@code logSlots} slots} */
    public long logBytes() {
        return LogLayout.HEADER_BYTES + logSlots * slotBytes();
    }

    /** {@return the most slots whose log fits one allocation} */
    public static int maxLogSlots() {
        return (int) Math.min(LogLayout.MAX_SLOTS, (SizeClasses.MAX - LogLayout.HEADER_BYTES) / slotBytes());
    }

    /** {@return the nodes of the run: every shard's members, then the clients} */
    public int nodes() {
        return shards * replicas + clients;
    }

    /** {@return the first client node} */
    public int firstClientNode() {
        return shards * replicas;
    }

    /** {@return the zipfian constant of the keys: YCSB's 0.99 for 0} */
    public double effectiveTheta() {
        return zipfTheta == 0 ? DsBenchmarkConfig.YCSB_THETA : zipfTheta;
    }

    /**
     * {@return the same workload on the unreplicated hash map: the map on node 0 and one worker on each of
     *          {@code clients} further nodes (no worker on node 0, so every operation is remote), keys
     *          {@code 0..keys-1}, the same operations per worker, values, zipfian constant and seed; since
     *          {@code DsBenchmark} seeds worker {@code g}'s choices as this benchmark seeds client {@code g}'s,
     *          both draw the same operations on the same keys}
     */
    public DsBenchmarkConfig mapConfig() {
        return new DsBenchmarkConfig(StructureKind.HASH_MAP, LockKind.ALOCK, 1 + clients, 1, false, null, opsPerClient,
                0, 0, 0, 0, keys - 1, zipfTheta, ycsb, valueBytes, 64L << 20, seed);
    }
}
