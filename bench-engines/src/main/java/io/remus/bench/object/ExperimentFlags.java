package io.remus.bench.object;

import io.remus.bench.engines.RunFlags;
import io.remus.bench.structure.Ycsb;
import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The flags that the sharing and key-value experiments share, as given, checked against the engines' rules
 * and turned into their configurations ({@link #kv}, {@link #sharing}). Every error is a
 * {@link BadArgumentException} whose message names the flag ({@code --duration}, {@code --threads},
 * {@code --zipf}, {@code --keys}, ...) and the bad value.
 *
 * @param zipf       {@code --zipf}
 * @param pLocal     {@code --p-local}, or NaN to pick over every key
 * @param seconds    {@code --duration}
 * @param segmentMib {@code --segment-mib}
 * @param seed       {@code --seed}
 */
public record ExperimentFlags(double zipf, double pLocal, double seconds, long segmentMib, long seed) {
    /**
     * @param ways      {@code --ways}
     * @param workloads {@code --workload}
     * @param nodes     {@code --nodes}, or the cluster's size with one process per node
     * @param threads   {@code --threads}
     * @param keys      {@code --keys}
     * @param valueSize {@code --value-size}
     * @return the key-value experiment's configuration
     * @throws BadArgumentException naming the flag and its value when one is bad
     */
    public KvConfig kv(List<KvWay> ways, List<Ycsb> workloads, int nodes, int threads, int keys, int valueSize) {
        Duration duration = duration();
        try {
            return new KvConfig(ways, workloads, nodes, threads, keys, zipf, pLocal, duration, segmentMib << 20, seed,
                    valueSize);
        } catch (BadArgumentException e) {
            throw new BadArgumentException(sharedFlagNames(e.getMessage()).replace("keys must", "--keys must")
                    .replace("workloads must", "--workload must").replace(": keys ", ": --keys ")
                    .replace("valueBytes", "--value-size"));
        }
    }

    /**
     * @param ways         {@code --ways}
     * @param threadCounts {@code --threads}, one configuration each
     * @param nodes        {@code --nodes}, or the cluster's size with one process per node
     * @param counters     {@code --counters}
     * @return the sharing experiment's configurations, one per thread count in the order given
     * @throws BadArgumentException naming the flag and its value when one is bad
     */
    public List<SharingConfig> sharing(List<SharingWay> ways, List<Integer> threadCounts, int nodes, int counters) {
        Duration duration = duration();
        List<SharingConfig> configs = new ArrayList<>();
        for (int t : threadCounts) {
            try {
                configs.add(new SharingConfig(ways, nodes, t, counters, zipf, pLocal, duration, segmentMib << 20, seed));
            } catch (BadArgumentException e) {
                throw new BadArgumentException(sharedFlagNames(e.getMessage()).replace("counters must", "--counters must")
                        .replace(": counters ", ": --counters "));
            }
        }
        return configs;
    }

    /** @return {@code --duration}, checked together with {@code --segment-mib} */
    private Duration duration() {
        Duration duration = RunFlags.hundredthsOrMore("--duration", seconds);
        RunFlags.segmentBytes(segmentMib);
        return duration;
    }

    private static String sharedFlagNames(String message) {
        return message.replace("threadsPerNode", "--threads").replace("nodes must", "--nodes must")
                .replace("zipfTheta", "--zipf").replace("pLocal", "--p-local").replace("< nodes", "< --nodes");
    }
}
