package io.remus.tools.bench;

import io.remus.tools.stats.BandwidthSummary;
import io.remus.tools.stats.LatencyRecorder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** The SEND loops (send-lat's ping-pong, send-bw's receive sink) on an in-memory SEND/RECV pair. */
class SendLoopsTest {
    @BeforeAll
    static void warmUpByIterationsOnly() {
        JitQuiet.markJvmWaited(); // these tests count warm-up iterations exactly
    }

    private static final Duration LIMIT = Duration.ofSeconds(60);

    private static ProgressLine quiet() {
        return new ProgressLine(new PrintWriter(new StringWriter()), false);
    }

    private static BenchSettings settings(BenchTest test, int size, long iterations, long warmup, int depth) {
        return settings(test, size, iterations, warmup, depth, 1);
    }

    private static BenchSettings settings(BenchTest test, int size, long iterations, long warmup, int depth,
                                          int cqModeration) {
        return new BenchSettings(test, List.of(size), iterations, warmup, null, null, depth, 1, 16,
                cqModeration, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10));
    }

    @Test
    void shouldRecordEveryMeasuredIterationWhenSendLatencyPingPongs() {
        BenchSettings s = settings(BenchTest.SEND_LAT, 64, 400, 40, 1);
        try (SendPair pair = new SendPair(4096, 1, 4)) {
            PostedReceives.fill(pair.client());
            PostedReceives.fill(pair.server());
            CompletableFuture<Long> answered = CompletableFuture.supplyAsync(
                    () -> SendPingPong.respond(pair.server(), 64, 440, () -> false, TimeUnit.SECONDS.toNanos(10)));
            LatencyRecorder recorder = new LatencyRecorder(null, 1_000_000_000L);
            long run = assertTimeoutPreemptively(LIMIT, () -> SendPingPong.client(pair.client(), s, 64, recorder, quiet()));
            assertEquals(440, run);
            assertEquals(400, recorder.histogram().getTotalCount());
            assertEquals(440L, assertTimeoutPreemptively(LIMIT, () -> answered.get()));
        }
    }

    @Test
    void shouldCarryTheClientsBytesWhenTheResponderReceivesAPing() {
        BenchSettings s = settings(BenchTest.SEND_LAT, 8, 1, 0, 1);
        try (SendPair pair = new SendPair(4096, 1, 2)) {
            PostedReceives.fill(pair.client());
            PostedReceives.fill(pair.server());
            pair.client().buffer().set(java.lang.foreign.ValueLayout.JAVA_LONG, 2048, 0x1234_5678L);
            CompletableFuture<Long> answered = CompletableFuture.supplyAsync(
                    () -> SendPingPong.respond(pair.server(), 8, 1, () -> false, TimeUnit.SECONDS.toNanos(10)));
            assertTimeoutPreemptively(LIMIT, () -> SendPingPong.client(pair.client(), s, 8,
                    new LatencyRecorder(null, 1_000_000_000L), quiet()));
            assertEquals(1L, assertTimeoutPreemptively(LIMIT, () -> answered.get()));
            assertEquals(0x1234_5678L, pair.server().buffer().get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
        }
    }

    @Test
    void shouldReturnWithoutAPingWhenStopIsAlreadySignalled() {
        try (SendPair pair = new SendPair(4096, 1, 2)) {
            PostedReceives.fill(pair.server());
            long answered = assertTimeoutPreemptively(LIMIT,
                    () -> SendPingPong.respond(pair.server(), 8, 100, () -> true, TimeUnit.SECONDS.toNanos(10)));
            assertEquals(0, answered);
        }
    }

    @Test
    void shouldReceiveEverySendWhenTheReceiveDepthIsBelowTheSendDepth() {
        BenchSettings s = settings(BenchTest.SEND_BW, 512, 3000, 300, 32, 7);
        try (SendPair pair = new SendPair(4096, 2, 8)) {
            PostedReceives.fill(pair.server());
            AtomicBoolean done = new AtomicBoolean();
            CompletableFuture<Long> received = CompletableFuture.supplyAsync(
                    () -> ReceiveSink.drain(pair.server(), done::get, TimeUnit.SECONDS.toNanos(10)));
            BandwidthSummary summary = assertTimeoutPreemptively(LIMIT, () -> Bandwidth.run(pair.client(), s, 512, quiet()));
            done.set(true);
            assertEquals(2 * 3000, summary.iterations(), "-n is per QP");
            assertEquals(2 * 3300L, assertTimeoutPreemptively(LIMIT, () -> received.get()));
        }
    }

    @Test
    void shouldTimeOutWhenNoSendArrivesAndTheClientNeverStops() {
        try (SendPair pair = new SendPair(4096, 1, 2)) {
            PostedReceives.fill(pair.server());
            assertTimeoutPreemptively(LIMIT, () -> assertThrows(BenchTimeoutException.class,
                    () -> ReceiveSink.drain(pair.server(), () -> false, TimeUnit.MILLISECONDS.toNanos(200))));
        }
    }

    @Test
    void shouldRefuseToFillWhenTheConnectionHoldsNoReceives() {
        try (SendPair pair = new SendPair(4096, 1, 0)) {
            assertThrows(BenchFailedException.class, () -> PostedReceives.fill(pair.client()));
        }
    }
}
