package io.remus.tools.stats;

/**
 * The result of one bandwidth run.
 *
 * <p>Average bandwidth is every completed byte over the measured time. Peak bandwidth is the best
 * full one-millisecond window of completions ({@link PeakWindow}); for runs shorter than two full
 * windows it equals the average. MB here is 2^20 bytes and Gb is 10^9 bits, as perftest prints them.
 *
 * @param bytes        message size
 * @param iterations   operations completed in the measured time
 * @param nanos        the measured time
 * @param peakPerWindow the most completions in one full window, or -1 for fewer than two full windows
 * @param windowNanos  the window length
 */
public record BandwidthSummary(int bytes, long iterations, long nanos, long peakPerWindow, long windowNanos) {
    private static final double MIB = 1024.0 * 1024.0;

    /** @return messages per second over the measured time */
    public double messagesPerSecond() {
        return nanos == 0 ? 0 : iterations * 1e9 / nanos;
    }

    /** @return the best window's messages per second, or the average when there was no full window pair */
    public double peakMessagesPerSecond() {
        return peakPerWindow < 0 ? messagesPerSecond() : peakPerWindow * 1e9 / windowNanos;
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
