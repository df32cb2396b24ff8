package io.remus.tools.report;

import io.remus.bench.perftest.BenchReport;
import static io.remus.bench.report.JsonReportWriter.reportObject;
import static io.remus.bench.report.JsonText.field;
import static io.remus.bench.report.JsonText.num;
import static io.remus.bench.report.JsonText.str;

import io.remus.bench.stats.BandwidthSummary;
import io.remus.bench.stats.LatencyResult;
import io.remus.bench.stats.LatencySummary;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The report as one JSON object ({@code --json}), written by hand. Top-level keys: {@code tool},
 * {@code test}, {@code fabric}, {@code transport}, {@code measures}, {@code latency_kind}
 * (latency tests: {@code round_trip} or {@code half_round_trip}), {@code unit}, {@code iterations},
 * {@code warmup_iterations}, {@code duration_seconds} and {@code margin_seconds} (null in iteration
 * mode), {@code queue_pairs}, {@code tx_depth}, {@code cq_moderation} (bandwidth tests: one work
 * request in this many is signalled), {@code atomic_words} (atomic-bw with {@code --words} only), {@code time}
 * (virtual time only: how the figures were timed), {@code notes}, {@code results}; {@code iterations} is per QP and
 * size. A latency result has {@code bytes iterations min max median mean stddev p90 p99 p99_9 p99_99} (usec); a bandwidth result
 * {@code bytes iterations seconds bw_peak bw_average msg_rate_mpps}.
 */
public final class JsonFormat {
    private JsonFormat() {
    }

    /**
     * @param r   the report
     * @param out where it goes
     */
    public static void write(BenchReport r, PrintWriter out) {
        write(r, null, out);
    }

    /**
     * @param r    the report
     * @param time how its figures were timed when not by the wall clock ({@link io.remus.bench.engines.SimTime#label()}),
     *             the key {@code time} after {@code transport}; null for the wall clock (no key)
     * @param out  where it goes
     */
    public static void write(BenchReport r, String time, PrintWriter out) {
        var s = r.settings();
        boolean latency = s.test().isLatency();
        Consumer<StringBuilder> fields = b -> {
            field(b, "transport", str(r.transport()));
            if (time != null) {
                field(b, "time", str(time));
            }
            field(b, "measures", str(r.measures()));
            if (latency) {
                field(b, "latency_kind", str(s.test().latencyKind().key()));
            }
            field(b, "unit", str(latency ? "usec" : r.reportGbits() ? "Gb/sec" : "MB/sec"));
            field(b, "iterations", Long.toString(s.iterations()));
            field(b, "warmup_iterations", Long.toString(s.durationMode() ? 0 : s.warmupIterations()));
            field(b, "duration_seconds", s.durationMode() ? num(s.duration().toMillis() / 1000.0) : "null");
            field(b, "margin_seconds", s.durationMode() ? num(s.margin().toMillis() / 1000.0) : "null");
            field(b, "queue_pairs", Integer.toString(s.queuePairs()));
            field(b, "tx_depth", Integer.toString(s.txDepth()));
            if (!latency) {
                field(b, "cq_moderation", Integer.toString(s.cqModeration()));
            }
            if (s.atomicWords() > 0) {
                field(b, "atomic_words", Integer.toString(s.atomicWords()));
            }
        };
        String test = s.test().commandName();
        out.println(latency
                ? reportObject(test, r.fabric(), fields, r.notes(), "results", r.latency(), JsonFormat::latencyResult, b -> { })
                : reportObject(test, r.fabric(), fields, r.notes(), "results", r.bandwidth(),
                        (b, result) -> bandwidthResult(b, result, r.reportGbits()), b -> { }));
        out.flush();
    }

    private static void latencyResult(StringBuilder b, LatencyResult l) {
        LatencySummary s = l.summary();
        b.append('{');
        field(b, "bytes", Integer.toString(l.bytes()));
        field(b, "iterations", Long.toString(s.count()));
        field(b, "min", us(s.min()));
        field(b, "max", us(s.max()));
        field(b, "median", us(s.median()));
        field(b, "mean", us(s.mean()));
        field(b, "stddev", us(s.stdDev()));
        field(b, "p90", us(s.p90()));
        field(b, "p99", us(s.p99()));
        field(b, "p99_9", us(s.p999()));
        b.append("\"p99_99\":").append(us(s.p9999())).append('}');
    }

    private static void bandwidthResult(StringBuilder b, BandwidthSummary r, boolean gbits) {
        b.append('{');
        field(b, "bytes", Integer.toString(r.bytes()));
        field(b, "iterations", Long.toString(r.iterations()));
        field(b, "seconds", num(r.seconds()));
        field(b, "bw_peak", num(gbits ? r.peakGbitsPerSecond() : r.peakMbPerSecond()));
        field(b, "bw_average", num(gbits ? r.averageGbitsPerSecond() : r.averageMbPerSecond()));
        b.append("\"msg_rate_mpps\":").append(num(r.messageRateMpps())).append('}');
    }

    private static String us(double nanos) {
        return num(LatencySummary.usec(nanos));
    }

}
