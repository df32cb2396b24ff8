package io.remus.bench.reclaim;

import io.remus.bench.churn.ChurnWorkload;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.ds.reclaim.EpochOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What {@link ReclaimBenchmark} runs.
 *
 * @param reclaimer      the reclaimer every worker uses
 * @param nodes          cluster nodes in this JVM, each a memory and a compute node, 1..64
 * @param threadsPerNode churn workers per node, 1..32
 * @param duration       how long the workers run, or null to run {@code opsPerThread} operations each;
 *                       positive, at most {@link Timeouts#MAX_FINITE}
 * @param opsPerThread   operations per worker when {@code duration} is null (at least 1), else 0
 * @param stall          whether one more thread, on node 0, enters a guard before the workers start
 *                       and stays inside it until they are done
 * @param slots          slots of the shared churn array (fewer: more contention), 1..4096
 * @param readPercent    the share of operations that read, 0..100 (the rest replace and retire)
 * @param epoch          the knobs of {@link ReclaimerKind#EPOCH} (ignored by the others)
 * @param barrierEvery   operations between two barrier rounds of {@link ReclaimerKind#BARRIER}, at least 1
 * @param sampleEvery    how often the cluster's unreclaimed bytes are sampled: 1 ms..1 min
 * @param segmentBytes   each node's segment size: the memory the run's garbage may fill (never-free
 *                       keeps everything), 1 MiB..1 GiB
 * @param seed           the seed of the workers' random choices
 */
public record ReclaimBenchmarkConfig(ReclaimerKind reclaimer, int nodes, int threadsPerNode, Duration duration,
                                     long opsPerThread, boolean stall, int slots, int readPercent, EpochOptions epoch,
                                     int barrierEvery, Duration sampleEvery, long segmentBytes, long seed) {
    /** The most nodes of a run. */
    public static final int MAX_NODES = 64;
    /** The most workers per node (each takes an announcement slot of {@link EpochOptions#slots()}). */
    public static final int MAX_THREADS = 32;
    /** The most slots of the churn array (it is written through one thread buffer). */
    public static final int MAX_SLOTS = 4096;
    /** The smallest segment. */
    public static final long MIN_SEGMENT = 1L << 20;
    /** The largest segment. */
    public static final long MAX_SEGMENT = 1L << 30;

    /**
     * Validates the configuration.
     *
     * @throws NullPointerException when {@code reclaimer}, {@code epoch} or {@code sampleEvery} is null
     * @throws BadArgumentException naming the value when one is out of range
     */
    public ReclaimBenchmarkConfig {
        Objects.requireNonNull(reclaimer, "reclaimer");
        Objects.requireNonNull(epoch, "epoch");
        Objects.requireNonNull(sampleEvery, "sampleEvery");
        check(nodes >= 1 && nodes <= MAX_NODES, "nodes must be 1.." + MAX_NODES + ", got " + nodes);
        check(threadsPerNode >= 1 && threadsPerNode <= MAX_THREADS,
                "threadsPerNode must be 1.." + MAX_THREADS + ", got " + threadsPerNode);
        if (duration != null) {
            check(duration.isPositive() && duration.compareTo(Timeouts.MAX_FINITE) <= 0,
                    "duration must be positive and at most " + Timeouts.MAX_FINITE + ", got " + duration);
            check(opsPerThread == 0, "give a duration or an operation count, not both (got " + duration + " and "
                    + opsPerThread + " operations)");
        } else {
            check(opsPerThread >= 1, "opsPerThread must be at least 1 without a duration, got " + opsPerThread);
        }
        check(slots >= 1 && slots <= MAX_SLOTS, "slots must be 1.." + MAX_SLOTS + ", got " + slots);
        check(readPercent >= 0 && readPercent <= 100, "readPercent must be 0..100, got " + readPercent);
        check(!(stall && reclaimer == ReclaimerKind.BARRIER && duration == null),
                "a stalled thread with the barrier reclaimer needs a duration: the workers wait at the barrier for "
                        + "it until the run's time is up, so an operation count is never reached");
        check(barrierEvery >= 1, "barrierEvery must be at least 1, got " + barrierEvery);
        check(sampleEvery.compareTo(Duration.ofMillis(1)) >= 0 && sampleEvery.compareTo(Duration.ofMinutes(1)) <= 0,
                "sampleEvery must be 1 ms..1 min, got " + sampleEvery);
        check(segmentBytes >= MIN_SEGMENT && segmentBytes <= MAX_SEGMENT,
                "segmentBytes must be " + MIN_SEGMENT + ".." + MAX_SEGMENT + ", got " + segmentBytes);
        check(epoch.slots() >= threadsPerNode + 2, "epoch.slots (" + epoch.slots() + ") must be at least threadsPerNode + 2 ("
                + (threadsPerNode + 2) + "): every worker and the stalled thread take one");
    }

    /**
     * A run of {@code duration} with defaults for the rest: 64 slots, 50 % reads, {@link #benchEpochOptions()},
     * a barrier round every 1000 operations, a sample every 20 ms, 256 MiB segments, seed 1.
     *
     * @param reclaimer      the reclaimer
     * @param nodes          nodes
     * @param threadsPerNode workers per node
     * @param duration       how long
     * @param stall          whether one thread stays in a guard for the whole run
     * @return the configuration
     */
    public static ReclaimBenchmarkConfig of(ReclaimerKind reclaimer, int nodes, int threadsPerNode, Duration duration,
                                            boolean stall) {
        return new ReclaimBenchmarkConfig(reclaimer, nodes, threadsPerNode, duration, 0, stall, 64, 50,
                benchEpochOptions(), 1000, Duration.ofMillis(20), 256L << 20, 1);
    }

    /**
     * {@return {@link EpochOptions#defaults()} with a 200 ms lease, no clock skew (every node of the run is
     *         in this JVM), a pass at 16 KiB and a limit of 64 KiB per thread}
     */
    public static EpochOptions benchEpochOptions() {
        return EpochOptions.defaults().withLease(Duration.ofMillis(200)).withClockSkew(Duration.ZERO)
                .withBytes(16 << 10, 64 << 10);
    }

    /** {@return the workers of the run, all nodes together} */
    public int workers() {
        return nodes * threadsPerNode;
    }

    /**
     * The documented bound on the cluster's unreclaimed bytes at any instant for {@link ReclaimerKind#EPOCH}:
     * each worker holds fewer than {@link EpochOptions#limitBytes()} when a guard closes, plus the one
     * block an operation retires, unless a wait for the limit ran out.
     *
     * @return {@code workers x (limitBytes + node bytes)}, or -1 when the epoch options set no limit
     *         or the reclaimer is not {@link ReclaimerKind#EPOCH}
     */
    public long unreclaimedBound() {
        if (reclaimer != ReclaimerKind.EPOCH || epoch.limitBytes() == Long.MAX_VALUE) {
            return -1;
        }
        return workers() * (epoch.limitBytes() + ChurnWorkload.NODE_BYTES);
    }

    /** @param reclaimer another reclaimer @return a copy with it */
    public ReclaimBenchmarkConfig withReclaimer(ReclaimerKind reclaimer) {
        return new ReclaimBenchmarkConfig(reclaimer, nodes, threadsPerNode, duration, opsPerThread, stall, slots,
                readPercent, epoch, barrierEvery, sampleEvery, segmentBytes, seed);
    }

    /** @param stall whether a thread stalls @return a copy with it */
    public ReclaimBenchmarkConfig withStall(boolean stall) {
        return new ReclaimBenchmarkConfig(reclaimer, nodes, threadsPerNode, duration, opsPerThread, stall, slots,
                readPercent, epoch, barrierEvery, sampleEvery, segmentBytes, seed);
    }

    /**
     * @param ops operations per worker
     * @return a copy that runs that many operations per worker instead of a duration
     */
    public ReclaimBenchmarkConfig withOpsPerThread(long ops) {
        return new ReclaimBenchmarkConfig(reclaimer, nodes, threadsPerNode, null, ops, stall, slots,
                readPercent, epoch, barrierEvery, sampleEvery, segmentBytes, seed);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new BadArgumentException("bad reclamation benchmark configuration: " + message);
        }
    }

    /**
     * One unreported run per reclaimer before the measured ones, so the JIT has compiled its paths: in the order
     * the reclaimers first appear, without the stalled thread, bounded by time, with the next seed.
     *
     * @param configs the measured runs
     * @param warmup  how long each warm-up runs
     * @return the warm-up runs
     */
    public static List<ReclaimBenchmarkConfig> warmUps(List<ReclaimBenchmarkConfig> configs, Duration warmup) {
        List<ReclaimerKind> done = new ArrayList<>();
        List<ReclaimBenchmarkConfig> warmUps = new ArrayList<>();
        for (ReclaimBenchmarkConfig c : configs) {
            if (!done.contains(c.reclaimer())) {
                done.add(c.reclaimer());
                warmUps.add(new ReclaimBenchmarkConfig(c.reclaimer(), c.nodes(), c.threadsPerNode(), warmup, 0, false,
                        c.slots(), c.readPercent(), c.epoch(), c.barrierEvery(), c.sampleEvery(), c.segmentBytes(),
                        c.seed() + 1));
            }
        }
        return warmUps;
    }
}
