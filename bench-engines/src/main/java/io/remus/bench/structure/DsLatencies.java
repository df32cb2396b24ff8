package io.remus.bench.structure;

import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;

/**
 * One fixed-range HdrHistogram ({@link LatencyHistograms}) per worker and operation type, each recorded
 * only by its worker's thread, merged per type after the run; across processes each node's merged
 * histograms travel as bytes ({@link #encode}, {@link #decode}).
 */
public final class DsLatencies {
    private final Histogram[][] byWorker;

    /** @param workers the run's workers, all nodes together */
    public DsLatencies(int workers) {
        byWorker = new Histogram[workers][OpType.values().length];
        for (Histogram[] w : byWorker) {
            for (int k = 0; k < w.length; k++) {
                w[k] = LatencyHistograms.create();
            }
        }
    }

    /** @return the sinks to hand the engine */
    public DsLatencySinks sinks() {
        return (worker, op) -> {
            Histogram h = byWorker[worker][op.ordinal()];
            return nanos -> LatencyHistograms.record(h, nanos);
        };
    }

    /** @return every worker's histograms merged, by type (types without samples included) */
    public Map<OpType, Histogram> merged() {
        Map<OpType, Histogram> out = new EnumMap<>(OpType.class);
        for (OpType op : OpType.values()) {
            Histogram m = LatencyHistograms.create();
            for (Histogram[] w : byWorker) {
                m.add(w[op.ordinal()]);
            }
            out.put(op, m);
        }
        return out;
    }

    /**
     * @param merged histograms by type
     * @return them compressed, one after the other in {@link OpType} order, each behind its length
     */
    public static byte[] encode(Map<OpType, Histogram> merged) {
        ByteBuffer all = ByteBuffer.allocate(1 << 20);
        for (OpType op : OpType.values()) {
            Histogram h = merged.get(op);
            ByteBuffer one = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            int n = h.encodeIntoCompressedByteBuffer(one);
            if (all.remaining() < 4 + n) {
                ByteBuffer bigger = ByteBuffer.allocate(2 * all.capacity() + n);
                all.flip();
                bigger.put(all);
                all = bigger;
            }
            all.putInt(n).put(one.array(), 0, n);
        }
        byte[] out = new byte[all.position()];
        all.flip().get(out);
        return out;
    }

    /**
     * @param bytes what {@link #encode} returned
     * @return the histograms by type
     * @throws IllegalArgumentException when the bytes are no such encoding
     */
    public static Map<OpType, Histogram> decode(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        Map<OpType, Histogram> out = new EnumMap<>(OpType.class);
        for (OpType op : OpType.values()) {
            byte[] one = new byte[b.getInt()];
            b.get(one);
            try {
                out.put(op, Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(one), 0));
            } catch (DataFormatException e) {
                throw new IllegalArgumentException("not an encoded latency histogram of " + op.label(), e);
            }
        }
        return out;
    }

    /**
     * @param nodes histograms by type of every node
     * @return their sums by type
     */
    public static Map<OpType, Histogram> sum(List<Map<OpType, Histogram>> nodes) {
        Map<OpType, Histogram> out = new EnumMap<>(OpType.class);
        for (OpType op : OpType.values()) {
            Histogram m = LatencyHistograms.create();
            for (Map<OpType, Histogram> n : nodes) {
                m.add(n.get(op));
            }
            out.put(op, m);
        }
        return out;
    }

    /**
     * @param merged histograms by type
     * @return the summaries of the types with samples
     */
    static Map<OpType, LatencySummary> summaries(Map<OpType, Histogram> merged) {
        Map<OpType, LatencySummary> out = new EnumMap<>(OpType.class);
        for (Map.Entry<OpType, Histogram> e : merged.entrySet()) {
            if (e.getValue().getTotalCount() > 0) {
                out.put(e.getKey(), LatencySummary.of(e.getValue()));
            }
        }
        return out;
    }

    /**
     * @param merged histograms by type
     * @return the summary of every type together
     */
    static LatencySummary overall(Map<OpType, Histogram> merged) {
        Histogram all = LatencyHistograms.create();
        for (Histogram h : merged.values()) {
            all.add(h);
        }
        return LatencySummary.of(all);
    }

    /**
     * @param result the engine's measurements
     * @param merged the latency histograms by type
     * @return the run
     */
    public static DsRun run(io.remus.bench.structure.DsBenchmarkResult result, Map<OpType, Histogram> merged) {
        return new DsRun(result, summaries(merged), overall(merged));
    }
}
