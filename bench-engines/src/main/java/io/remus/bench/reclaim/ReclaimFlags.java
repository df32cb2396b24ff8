package io.remus.bench.reclaim;

import io.remus.bench.engines.RunFlags;
import io.remus.core.error.BadArgumentException;
import io.remus.ds.reclaim.EpochOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.remus.bench.engines.RunFlags.require;

/**
 * The reclamation benchmark's flags as given, checked against the engine's rules and turned into one
 * {@link ReclaimBenchmarkConfig} per run ({@link #configs}). Every error is a {@link BadArgumentException}
 * whose message names the flag ({@code --reclaimer}, {@code --stall}, {@code --ops}, ...) and the bad value.
 *
 * @param reclaimers    {@code --reclaimer}: the reclaimers' names, as given
 * @param stall         {@code --stall}: no, yes or both
 * @param threads       {@code --threads}: churn workers per node
 * @param seconds       {@code -D}
 * @param secondsGiven  whether {@code -D} was given
 * @param warmupSeconds {@code --warmup}
 * @param ops           {@code --ops}, or null for a run of {@code -D}
 * @param slots         {@code --slots}
 * @param readPercent   {@code --read-percent}
 * @param leaseMillis   {@code --lease-ms}
 * @param limitKib      {@code --limit-kib}
 * @param barrierEvery  {@code --barrier-every}
 * @param sampleMillis  {@code --sample-ms}
 * @param segmentMib    {@code --segment-mib}
 * @param seed          {@code --seed}
 */
public record ReclaimFlags(List<String> reclaimers, String stall, int threads, double seconds, boolean secondsGiven,
                           double warmupSeconds, Long ops, int slots, int readPercent, long leaseMillis, long limitKib,
                           int barrierEvery, long sampleMillis, long segmentMib, long seed) {
    /** Copies the list. */
    public ReclaimFlags {
        reclaimers = List.copyOf(reclaimers);
    }

    /**
     * One configuration per run, in run order: for each reclaimer, without then with the stalled thread.
     *
     * @param nodes     the node count: {@code --nodes}, or the cluster's size with one process per node
     * @param clockSkew the epoch reclaimer's clock skew: 0 in one JVM, {@link EpochOptions#defaults()}' across processes
     * @return the configurations
     * @throws BadArgumentException naming the flag and its value when one is out of range
     */
    public List<ReclaimBenchmarkConfig> configs(int nodes, Duration clockSkew) {
        List<ReclaimerKind> kinds = new ArrayList<>();
        for (String name : reclaimers) {
            ReclaimerKind k;
            try {
                k = ReclaimerKind.parse(name.strip());
            } catch (BadArgumentException e) {
                throw new BadArgumentException("--reclaimer: " + e.getMessage());
            }
            require(!kinds.contains(k), "--reclaimer names " + k.flagName() + " twice");
            kinds.add(k);
        }
        List<Boolean> stalls = switch (stall.strip().toLowerCase(Locale.ROOT)) {
            case "no" -> List.of(false);
            case "yes" -> List.of(true);
            case "both" -> List.of(false, true);
            default -> throw new BadArgumentException("--stall must be no, yes or both, got '" + stall + "'");
        };
        Duration duration = RunFlags.positiveSeconds("-D", seconds);
        RunFlags.checkWarmup(warmupSeconds);
        require(ops == null || ops >= 1, "--ops must be at least 1, got " + ops);
        require(ops == null || !secondsGiven, "--ops " + ops + " and -D " + seconds + " exclude each other: a run is "
                + "bounded by one");
        require(leaseMillis >= 1 && leaseMillis <= 3_600_000, "--lease-ms must be 1..3600000, got " + leaseMillis);
        require(limitKib >= 1 && limitKib <= (1L << 30), "--limit-kib must be 1.." + (1L << 30) + ", got " + limitKib);
        require(sampleMillis >= 1 && sampleMillis <= 60_000, "--sample-ms must be 1..60000, got " + sampleMillis);
        long segment = RunFlags.segmentBytes(segmentMib);
        long limit = limitKib << 10;
        EpochOptions epoch = ReclaimBenchmarkConfig.benchEpochOptions().withLease(Duration.ofMillis(leaseMillis))
                .withClockSkew(clockSkew).withBytes(Math.max(1, limit / 4), limit);
        List<ReclaimBenchmarkConfig> configs = new ArrayList<>();
        for (ReclaimerKind k : kinds) {
            for (boolean s : stalls) {
                try {
                    configs.add(new ReclaimBenchmarkConfig(k, nodes, threads, ops == null ? duration : null,
                            ops == null ? 0 : ops, s, slots, readPercent, epoch, barrierEvery,
                            Duration.ofMillis(sampleMillis), segment, seed));
                } catch (BadArgumentException e) {
                    throw new BadArgumentException(flagNames(e.getMessage()));
                }
            }
        }
        return configs;
    }

    private static String flagNames(String message) {
        return message.replace("threadsPerNode", "--threads").replace("nodes must", "--nodes must")
                .replace("slots must", "--slots must").replace("readPercent", "--read-percent")
                .replace("barrierEvery", "--barrier-every")
                .replace("epoch.slots", "announcement slots per table").replace("a duration or an operation count",
                        "-D or --ops");
    }
}
