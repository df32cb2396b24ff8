package io.remus.bench.perftest;

import io.remus.bench.stats.BandwidthSummary;
import io.remus.bench.stats.LatencyResult;

import java.util.List;

/**
 * Everything a benchmark run prints: what ran, where, with which settings, and the results of
 * each message size (latency or bandwidth, never both).
 *
 * @param settings    the settings
 * @param fabric      the fabric's short name, e.g. {@code sim}
 * @param transport   one line describing the transport and where the server runs
 * @param notes       remarks the reader must see (ignored flags, defaults chosen)
 * @param latency     latency results, one per size; empty for bandwidth tests
 * @param bandwidth   bandwidth results, one per size; empty for latency tests
 * @param reportGbits whether bandwidth prints in Gb/s instead of MB/s
 */
public record BenchReport(BenchSettings settings, String fabric, String transport, List<String> notes,
                          List<LatencyResult> latency, List<BandwidthSummary> bandwidth, boolean reportGbits) {
    /** Copies the lists. */
    public BenchReport {
        notes = List.copyOf(notes);
        latency = List.copyOf(latency);
        bandwidth = List.copyOf(bandwidth);
    }

    /** @return the one line that says what a latency sample is, or what bandwidth counts */
    public String measures() {
        var test = settings.test();
        if (!test.isLatency()) {
            return test.operation().words() + " bandwidth: completed bytes over the measured time"
                    + ", " + settings.inFlightPerQueuePair() + " in flight per QP, " + settings.queuePairs() + " QP(s), "
                    + (settings.cqModeration() == 1 ? "every work request signalled"
                    : "one work request in " + settings.cqModeration() + " signalled (-Q)");
        }
        return test.operation().words() + " latency: " + test.latencyKind().words()
                + ", every sample recorded, nothing trimmed";
    }

    /** @return how long each size ran, in words */
    public String runLength() {
        if (settings.durationMode()) {
            return settings.duration().toSeconds() + " s per size, the first and last "
                    + settings.margin().toMillis() + " ms not measured";
        }
        String each = !settings.test().isLatency() && settings.queuePairs() > 1 ? " per QP and size" : " per size";
        return settings.iterations() + " iterations" + each + " after " + settings.warmupIterations()
                + " warm-up iterations (not measured)";
    }
}
