package io.remus.bench.stats;

/**
 * The result of one bandwidth run.
 *
 * <p>Average bandwidth is every completed byte over the measured time. Peak bandwidth is the best rate
 * over spans from a post to a later completion ({@link PeakRate}); when no measured completion
 * ended a span it equals the average. MB here is 2^20 bytes and Gb is 10^9 bits, as perftest prints them.
 *
 * @param bytes        message size
 * @param iterations   operations completed in the measured time
 * @param nanos        the measured time
 * @param peakPerSecond the best messages per second ({@link PeakRate}), or -1 when no measured completion ended a span
 */
public record BandwidthSummary(int bytes, long iterations, long nanos, double peakPerSecond) {
    private static final double MIB = 1024.0 * 1024.0;

    /** @return messages per second over the measured time */
    public double messagesPerSecond() {
        return nanos == 0 ? 0 : iterations * 1e9 / nanos;
    }

    /** @return the best span's messages per second, or the average when no measured completion ended a span */
    public double peakMessagesPerSecond() {
        return peakPerSecond < 0 ? messagesPerSecond() : peakPerSecond;
    }

    /** @return average bandwidth in MB (2^20 bytes) per second */
    public double averageMbPerSecond() {
        return messagesPerSecond() * bytes / MIB;
    }

    /** @return peak bandwidth in MB (2^20 bytes) per second */
    public double peakMbPerSecond() {
        return peakMessagesPerSecond() * bytes / MIB;
    }

    /** @return average bandwidth in Gb (10^9 bits) per second */
    public double averageGbitsPerSecond() {
        return messagesPerSecond() * bytes * 8 / 1e9;
    }

    /** @return peak bandwidth in Gb (10^9 bits) per second */
    public double peakGbitsPerSecond() {
        return peakMessagesPerSecond() * bytes * 8 / 1e9;
    }

    /** @return the message rate in millions per second (perftest's {@code MsgRate[Mpps]}) */
    public double messageRateMpps() {
        return messagesPerSecond() / 1e6;
    }

    /** @return the measured time in seconds */
    public double seconds() {
        return nanos / 1e9;
    }
}
