package io.remus.bench.structure;

import io.remus.alock.kind.LockKind;
import io.remus.bench.engines.RunFlags;
import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static io.remus.bench.engines.RunFlags.require;

/**
 * The set and map benchmark's flags as given, checked against the engine's rules and turned into one
 * {@link DsBenchmarkConfig} per run ({@link #configs}). Every error is a {@link BadArgumentException} whose message
 * names the flag ({@code --lock}, {@code --ycsb}, {@code -D}, {@code --num-ops}, ...) and the bad value.
 *
 * @param lock        {@code --lock}
 * @param ycsb        {@code --ycsb}, or null for the intset mix
 * @param seconds     {@code -D}, or null for a run of {@code --num-ops}
 * @param numOps      {@code --num-ops}
 * @param numOpsGiven whether {@code --num-ops} was given
 * @param mixGiven    which of {@code --prefill}, {@code --insert} and {@code --remove} were given
 * @param prefill     {@code --prefill}
 * @param insert      {@code --insert}
 * @param remove      {@code --remove}
 * @param keyLb       {@code --key-lb}
 * @param keyUb       {@code --key-ub}
 * @param zipf        {@code --zipf}
 * @param valueSize   {@code --value-size}
 * @param homeWorkers {@code --home-workers}
 * @param segmentMib  {@code --segment-mib}
 * @param seed        {@code --seed}
 */
public record DsFlags(String lock, String ycsb, Double seconds, long numOps, boolean numOpsGiven, List<String> mixGiven,
                      int prefill, int insert, int remove, long keyLb, long keyUb, double zipf, int valueSize,
                      boolean homeWorkers, long segmentMib, long seed) {
    /** Copies the list. */
    public DsFlags {
        mixGiven = List.copyOf(mixGiven);
    }

    /**
     * One configuration per run: every structure with every thread count, structures outer, each list in the
     * order given.
     *
     * @param nodes        {@code --nodes}, or the cluster's size with one process per node
     * @param structures   {@code --structure}
     * @param threadCounts {@code --threads}
     * @return the configurations, in run order
     * @throws BadArgumentException naming the flag and its value when one is out of range, or flags that exclude
     *                              each other
     */
    public List<DsBenchmarkConfig> configs(int nodes, List<StructureKind> structures, List<Integer> threadCounts) {
        List<DsBenchmarkConfig> configs = new ArrayList<>();
        for (StructureKind s : structures) {
            for (int t : threadCounts) {
                configs.add(config(nodes, s, t));
            }
        }
        return configs;
    }

    private DsBenchmarkConfig config(int nodes, StructureKind structure, int threads) {
        LockKind l = parse(() -> LockKind.parse(lock.strip()), "--lock");
        Ycsb y = ycsb == null ? null : parse(() -> Ycsb.parse(ycsb.strip()), "--ycsb");
        Duration duration = seconds == null ? null : RunFlags.hundredthsOrMore("-D", seconds);
        require(seconds != null || numOps >= 1, "--num-ops must be at least 1, got " + numOps);
        require(seconds == null || !numOpsGiven, "--num-ops " + numOps + " and -D " + seconds + " exclude each other: "
                + "a run is bounded by one");
        if (ycsb != null && !mixGiven.isEmpty()) {
            throw new BadArgumentException(mixGiven.getFirst() + " and --ycsb " + ycsb + " exclude each other: the YCSB "
                    + "workload sets the mix and loads every key");
        }
        long segment = RunFlags.segmentBytes(segmentMib);
        try {
            return new DsBenchmarkConfig(structure, l, nodes, threads, homeWorkers, duration,
                    duration == null ? numOps : 0, prefill, insert, remove, keyLb, keyUb, zipf, y, valueSize, segment, seed);
        } catch (BadArgumentException e) {
            throw new BadArgumentException(flagNames(e.getMessage()));
        }
    }

    private static <T> T parse(Supplier<T> parser, String flag) {
        try {
            return parser.get();
        } catch (BadArgumentException e) {
            throw new BadArgumentException(flag + ": " + e.getMessage());
        }
    }

    private static String flagNames(String message) {
        return message.replace("threadsPerNode", "--threads").replace("nodes must", "--nodes must")
                .replace("prefillPercent", "--prefill").replace("insertPercent", "--insert")
                .replace("removePercent", "--remove").replace("keyLb", "--key-lb").replace("keyUb", "--key-ub")
                .replace("zipfTheta", "--zipf").replace("valueBytes", "--value-size")
                .replace("without workers on node 0", "--no-home-workers");
    }
}
