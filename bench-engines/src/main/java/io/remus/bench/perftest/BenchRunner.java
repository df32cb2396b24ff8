package io.remus.bench.perftest;

import io.remus.bench.stats.BandwidthSummary;
import io.remus.bench.stats.ClockCost;
import io.remus.bench.stats.LatencyKind;
import io.remus.bench.stats.LatencyRecorder;
import io.remus.bench.stats.LatencyResult;
import io.remus.core.time.ThreadTime;
import org.HdrHistogram.HistogramLogWriter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a benchmark's sizes on a transport, client side, and collects the results. For the
 * ping-pong of write-lat on a transport whose server is in this process, it runs the responder on
 * a second thread ({@link ThreadTime#newThread}, so that it is scheduled in virtual time too). SEND tests post the client's receives once, before the first size. Each size
 * (each run, with {@code --repeat}) passes the {@link RunGate}, which is off unless a harness asks.
 */
public final class BenchRunner {
    private static final long INTERVAL_NANOS = 1_000_000_000L;
    private static final int CLOCK_SAMPLES = 10_001;
    /** The warm-up note of a run in virtual time. */
    static final String VIRTUAL_WARM_UP = "warm-up: none; in virtual time the JIT's state changes no figure, so "
            + "--warmup is ignored and every iteration is measured";

    private final BenchTransport transport;
    private final BenchSettings settings;
    private final ProgressLine progress;
    private final HistogramLogWriter intervalLog;
    private final long clockCostNanos;

    /**
     * @param s the run's settings
     * @return how the run warms up before it measures, in words for the report's notes, or null when it does not
     */
    public static String describeWarmUp(BenchSettings s) {
        BenchTest test = s.test();
        if (test.isLatency() && (test.operation() == BenchOperation.READ || test.operation() == BenchOperation.ATOMIC)) {
            return s.durationMode() || s.warmupIterations() > 0 ? RoundTripLatency.describeWarmUp(s) : null;
        }
        if (s.durationMode()) {
            return test.isLatency() ? JitQuiet.describeMargin(s.jitWait(), s.margin())
                    : Bandwidth.describeDurationWarmUp(s.jitWait(), s.margin());
        }
        if (s.warmupIterations() > 0) {
            return test.isLatency() ? JitQuiet.describe(s.jitWait(), s.warmupIterations())
                    : JitQuiet.describeBandwidth(s.jitWait(), s.warmupIterations());
        }
        return null;
    }

    /**
     * Runs every size and assembles the report. A latency test first measures what one clock read costs
     * ({@link ClockCost}) and subtracts it from each sample; the notes get that cost (latency tests) and how the
     * run warms up ({@link #describeWarmUp}). On a thread of the simulator's virtual-time scheduler
     * ({@link ThreadTime#isScheduled()}) nothing reads the host: no warm-up runs ({@link BenchSettings#withoutWarmUp()},
     * the report's settings say so) and no clock cost is measured or subtracted, and the notes say both.
     *
     * @param transport   where operations go
     * @param settings    what to run
     * @param progress    the progress line
     * @param intervalLog where one-second interval histograms go (latency tests), or null
     * @param notes       the report's notes so far, which get the lines above
     * @param reportGbits whether bandwidth is reported in Gb/s instead of MB/s
     * @return the report
     * @throws BenchFailedException when an operation fails or times out
     */
    public static BenchReport report(BenchTransport transport, BenchSettings settings, ProgressLine progress,
                                     HistogramLogWriter intervalLog, List<String> notes, boolean reportGbits) {
        boolean virtual = ThreadTime.isScheduled();
        if (virtual) {
            settings = settings.withoutWarmUp();
        }
        String warmUp = virtual ? VIRTUAL_WARM_UP : describeWarmUp(settings);
        if (settings.test().isLatency()) {
            long clockCost = virtual ? 0 : ClockCost.measureNanos(CLOCK_SAMPLES);
            notes.add(virtual ? "clock: virtual time, whose reads cost nothing; nothing is subtracted from the samples"
                    : "clock: System.nanoTime costs " + clockCost + " ns per call here; that is subtracted from "
                    + "each sample (perftest reads the TSC, whose cost is negligible)");
            if (warmUp != null) {
                notes.add(warmUp);
            }
            List<LatencyResult> results = new BenchRunner(transport, settings, progress, intervalLog, clockCost).latency();
            return new BenchReport(settings, transport.fabricName(), transport.description(), notes, results, List.of(),
                    reportGbits);
        }
        if (warmUp != null) {
            notes.add(warmUp);
        }
        List<BandwidthSummary> results = new BenchRunner(transport, settings, progress, null).bandwidth();
        return new BenchReport(settings, transport.fabricName(), transport.description(), notes, List.of(), results,
                reportGbits);
    }

    /**
     * @param transport   where operations go
     * @param settings    what to run
     * @param progress    the progress line
     * @param intervalLog where one-second interval histograms go (latency tests), or null
     */
    public BenchRunner(BenchTransport transport, BenchSettings settings, ProgressLine progress,
                       HistogramLogWriter intervalLog) {
        this(transport, settings, progress, intervalLog, 0);
    }

    /**
     * @param transport      where operations go
     * @param settings       what to run
     * @param progress       the progress line
     * @param intervalLog    where one-second interval histograms go (latency tests), or null
     * @param clockCostNanos what one clock read adds to a timed span ({@link io.remus.bench.stats.ClockCost}),
     *                       subtracted from each latency sample (half of it from write-lat's half round trips)
     */
    public BenchRunner(BenchTransport transport, BenchSettings settings, ProgressLine progress,
                       HistogramLogWriter intervalLog, long clockCostNanos) {
        this.clockCostNanos = clockCostNanos;
        this.transport = transport;
        this.settings = settings;
        this.progress = progress;
        this.intervalLog = intervalLog;
    }

    /**
     * @return one latency result per size
     * @throws BenchFailedException when an operation fails or times out
     */
    public List<LatencyResult> latency() {
        List<LatencyResult> results = new ArrayList<>();
        boolean send = settings.test().operation() == BenchOperation.SEND;
        try (BenchConnection client = transport.client();
             BenchConnection server = send && transport.hasInProcessServer() ? transport.inProcessServer() : null) {
            PostedReceives receives = send ? PostedReceives.atStart(client) : null;
            PostedReceives serverReceives = server != null ? PostedReceives.atStart(server) : null;
            if (send) {
                receives.fill();
            }
            if (serverReceives != null) {
                serverReceives.fill();
            }
            List<Integer> sizes = settings.sizes();
            for (int k = 0; k < sizes.size(); k++) {
                int size = sizes.get(k);
                RunGate.beforeRun(k + 1);
                if (intervalLog != null) {
                    intervalLog.outputComment("size " + size + " bytes");
                }
                long correction = settings.test().latencyKind() == LatencyKind.HALF_ROUND_TRIP
                        ? clockCostNanos / 2 : clockCostNanos;
                LatencyRecorder recorder = new LatencyRecorder(intervalLog, INTERVAL_NANOS, correction);
                if (settings.test().operation() == BenchOperation.WRITE && transport.hasInProcessServer()) {
                    pingPong(client, size, recorder);
                } else if (send && server != null) {
                    int messageSize = size;
                    inProcess("send-lat responder",
                            done -> SendPingPong.respond(server, serverReceives, messageSize, Long.MAX_VALUE, done, settings.timeout().toNanos()),
                            () -> SendPingPong.client(client, receives, settings, messageSize, recorder, progress));
                } else if (send) {
                    transport.beginSize(k);
                    SendPingPong.client(client, receives, settings, size, recorder, progress);
                } else if (settings.test().operation() == BenchOperation.WRITE) {
                    WritePingPong.clear(client, size);
                    transport.beginSize(k);
                    WritePingPong.client(client, settings, size, recorder, progress);
                } else {
                    transport.beginSize(k);
                    RoundTripLatency.run(client, settings, size, recorder, progress);
                }
                results.add(LatencyResult.of(size, recorder.histogram()));
                RunGate.afterRun(k + 1);
            }
        }
        return results;
    }

    /**
     * @return one bandwidth result per size
     * @throws BenchFailedException when an operation fails or times out
     */
    public List<BandwidthSummary> bandwidth() {
        List<BandwidthSummary> results = new ArrayList<>();
        boolean send = settings.test().operation() == BenchOperation.SEND;
        try (BenchConnection client = transport.client();
             BenchConnection server = send && transport.hasInProcessServer() ? transport.inProcessServer() : null) {
            PostedReceives serverReceives = server != null ? PostedReceives.atStart(server) : null;
            if (serverReceives != null) {
                serverReceives.fill();
            }
            List<Integer> sizes = settings.sizes();
            for (int k = 0; k < sizes.size(); k++) {
                RunGate.beforeRun(k + 1);
                int size = sizes.get(k);
                if (server != null) {
                    BandwidthSummary[] one = new BandwidthSummary[1];
                    inProcess("send-bw receiver", done -> ReceiveSink.drain(server, serverReceives, done, settings.timeout().toNanos()),
                            () -> one[0] = Bandwidth.run(client, settings, size, progress));
                    results.add(one[0]);
                } else {
                    transport.beginSize(k);
                    results.add(Bandwidth.run(client, settings, size, progress));
                }
                RunGate.afterRun(k + 1);
            }
        }
        return results;
    }

    /**
     * Runs {@code serve} on a second thread (given a flag that turns true once {@code measure} returned) while
     * {@code measure} runs on this one: the in-process server side of write-lat and, on the simulator, of the SEND tests.
     */
    private void inProcess(String name, Consumer<BooleanSupplier> serve, Runnable measure) {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        AtomicBoolean done = new AtomicBoolean();
        Thread responder = ThreadTime.newThread("remus-" + name, () -> {
            try {
                serve.accept(done::get);
            } catch (RuntimeException e) {
                failure.set(e);
            }
        });
        responder.setDaemon(true);
        responder.start();
        try {
            measure.run();
        } catch (BenchFailedException e) {
            RuntimeException first = failure.get();
            throw first != null ? first : e;
        } finally {
            done.set(true);
            join(responder);
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    private void pingPong(BenchConnection client, int size, LatencyRecorder recorder) {
        try (BenchConnection server = transport.inProcessServer()) {
            WritePingPong.clear(client, size);
            WritePingPong.clear(server, size);
            long most = Long.MAX_VALUE; // the client's warm-up lasts until its JIT is quiet: answer until it is done
            long timeout = settings.timeout().toNanos();
            inProcess("write-lat responder", done -> WritePingPong.respond(server, size, most, done, timeout),
                    () -> WritePingPong.client(client, settings, size, recorder, progress));
        }
    }

    private void join(Thread responder) {
        try {
            if (!ThreadTime.join(responder, settings.timeout().toNanos() + TimeUnit.SECONDS.toNanos(1))) {
                throw new BenchTimeoutException("the in-process responder did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailedException("interrupted while stopping the in-process responder");
        }
    }
}
