package io.remus.bench.stats;

import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

/**
 * The latency histograms every tool records into: nanoseconds from 1 to one hour at three
 * significant digits, a fixed range. A histogram that resizes itself does so through an
 * exception path that a warm-up may never have taken; the JIT then recompiles the recording code
 * inside the measured window (docs/FINDINGS.md, "Fixed-range latency histograms"). Samples
 * outside the range are clamped, never dropped: a negative one (a clock that stepped back) counts
 * as 0, one above an hour as an hour.
 */
public final class LatencyHistograms {
    /** The largest sample kept as it is: one hour in nanoseconds, the longest timeout the tools take. */
    public static final long HIGHEST_NANOS = 3_600_000_000_000L;
    private static final int SIGNIFICANT_DIGITS = 3;

    private LatencyHistograms() {
    }

    /** @return an empty histogram with the fixed range */
    public static Histogram create() {
        return new Histogram(1, HIGHEST_NANOS, SIGNIFICANT_DIGITS);
    }

    /**
     * Records {@code nanos} into {@code histogram} (one made by {@link #create}), clamped to its range.
     *
     * @param histogram where the sample goes
     * @param nanos     the sample in nanoseconds
     */
    public static void record(Histogram histogram, long nanos) {
        histogram.recordValue(clamp(nanos));
    }

    /** @return {@code nanos} clamped to [0, {@link #HIGHEST_NANOS}] */
    public static long clamp(long nanos) {
        return Math.min(HIGHEST_NANOS, Math.max(0, nanos));
    }

    /**
     * Merges {@code histograms} and compresses the sum, for sending to another process
     * ({@link Histogram#encodeIntoCompressedByteBuffer}).
     *
     * @param histograms histograms made by {@link #create}
     * @return the compressed bytes of their sum
     */
    public static byte[] compress(Histogram... histograms) {
        Histogram all = create();
        for (Histogram h : histograms) {
            all.add(h);
        }
        ByteBuffer buffer = ByteBuffer.allocate(all.getNeededByteBufferCapacity());
        int length = all.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip().get(bytes);
        return bytes;
    }

    /**
     * @param bytes what {@link #compress} made
     * @return the histogram
     * @throws DataFormatException when the bytes are no compressed histogram
     */
    public static Histogram decompress(byte[] bytes) throws DataFormatException {
        return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
    }
}
