package io.remus.bench.perftest;

import io.remus.bench.stats.BandwidthSummary;
import io.remus.bench.stats.LatencyRecorder;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SEND loops (send-lat's ping-pong, send-bw's receive sink) on an in-memory SEND/RECV pair. */
class SendLoopsTest {
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
                cqModeration, AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10), JitWait.off()); // warm-ups counted exactly
    }

    @Test
    void shouldRecordEveryMeasuredIterationWhenSendLatencyPingPongs() {
        BenchSettings s = settings(BenchTest.SEND_LAT, 64, 400, 40, 1);
        try (SendPair pair = new SendPair(4096, 1, 4)) {
            PostedReceives pings = PostedReceives.atStart(pair.client());
            PostedReceives pongs = PostedReceives.atStart(pair.server());
            pings.fill();
            pongs.fill();
            CompletableFuture<Long> answered = CompletableFuture.supplyAsync(
                    () -> SendPingPong.respond(pair.server(), pongs, 64, 440, () -> false, TimeUnit.SECONDS.toNanos(10)));
            LatencyRecorder recorder = new LatencyRecorder(null, 1_000_000_000L);
            long run = assertTimeoutPreemptively(LIMIT, () -> SendPingPong.client(pair.client(), pings, s, 64, recorder, quiet()));
            assertEquals(440, run);
            assertEquals(400, recorder.histogram().getTotalCount());
            assertEquals(440L, assertTimeoutPreemptively(LIMIT, () -> answered.get()));
        }
    }

    @Test
    void shouldCarryTheClientsBytesWhenTheResponderReceivesAPing() {
        BenchSettings s = settings(BenchTest.SEND_LAT, 8, 1, 0, 1);
        try (SendPair pair = new SendPair(4096, 1, 2)) {
            PostedReceives pings = PostedReceives.atStart(pair.client());
            PostedReceives pongs = PostedReceives.atStart(pair.server());
            pings.fill();
            pongs.fill();
            pair.client().buffer().set(java.lang.foreign.ValueLayout.JAVA_LONG, 2048, 0x1234_5678L);
            CompletableFuture<Long> answered = CompletableFuture.supplyAsync(
                    () -> SendPingPong.respond(pair.server(), pongs, 8, 1, () -> false, TimeUnit.SECONDS.toNanos(10)));
            assertTimeoutPreemptively(LIMIT, () -> SendPingPong.client(pair.client(), pings, s, 8,
                    new LatencyRecorder(null, 1_000_000_000L), quiet()));
            assertEquals(1L, assertTimeoutPreemptively(LIMIT, () -> answered.get()));
            assertEquals(0x1234_5678L, pair.server().buffer().get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
        }
    }

    @Test
    void shouldReturnWithoutAPingWhenStopIsAlreadySignalled() {
        try (SendPair pair = new SendPair(4096, 1, 2)) {
            PostedReceives pongs = PostedReceives.atStart(pair.server());
            pongs.fill();
            long answered = assertTimeoutPreemptively(LIMIT,
                    () -> SendPingPong.respond(pair.server(), pongs, 8, 100, () -> true, TimeUnit.SECONDS.toNanos(10)));
            assertEquals(0, answered);
        }
    }

    @Test
    void shouldReceiveEverySendWhenTheReceiveDepthIsBelowTheSendDepth() {
        BenchSettings s = settings(BenchTest.SEND_BW, 512, 3000, 300, 32, 7);
        try (SendPair pair = new SendPair(Bandwidth.bufferBytes(512, 2, true), 2, 8)) {
            PostedReceives receives = PostedReceives.cycling(pair.server(), 512);
            receives.messagesOf(512);
            receives.fill();
            Streamed run = stream(pair, receives, s, 512);
            assertEquals(2 * 3000, run.summary().iterations(), "-n is per QP");
            assertEquals(2 * 3300L, run.received());
        }
    }

    @Test
    void shouldTimeOutWhenNoSendArrivesAndTheClientNeverStops() {
        try (SendPair pair = new SendPair(4096, 1, 2)) {
            PostedReceives receives = PostedReceives.atStart(pair.server());
            receives.fill();
            assertTimeoutPreemptively(LIMIT, () -> assertThrows(BenchTimeoutException.class,
                    () -> ReceiveSink.drain(pair.server(), receives, () -> false, TimeUnit.MILLISECONDS.toNanos(200))));
        }
    }

    @Test
    void shouldRefuseToFillWhenTheConnectionHoldsNoReceives() {
        try (SendPair pair = new SendPair(4096, 1, 0)) {
            assertThrows(BenchFailedException.class, () -> PostedReceives.atStart(pair.client()).fill());
        }
    }

    @Test
    void shouldPostEveryReceiveAtTheBuffersStartWhenReceivesAreForLatency() {
        try (SendPair pair = new SendPair(8192, 1, 3)) {
            PostedReceives receives = PostedReceives.atStart(pair.server());
            receives.messagesOf(64);
            receives.fill();
            receives.repost(receiveOne(pair, 0));
            assertEquals(List.of(new SendPair.Receive(0, 0, 4096), new SendPair.Receive(0, 0, 4096),
                    new SendPair.Receive(0, 0, 4096), new SendPair.Receive(0, 0, 4096)),
                    pair.receivesPostedOn(pair.server()));
        }
    }

    @Test
    void shouldMoveEachQueuePairsReceivesOnByACacheLineAndWrapAfterAPageWhenMessagesAreSmall() {
        int qps = 2;
        long part = Bandwidth.bufferBytes(256, qps, true) / 2 / qps; // a page and a cycle's room
        try (SendPair pair = new SendPair(Bandwidth.bufferBytes(256, qps, true), qps, 100)) {
            PostedReceives receives = PostedReceives.cycling(pair.server(), 256);
            receives.messagesOf(8);
            receives.fill(); // 100 per QP: 64 slots of 64 bytes, then from the start again
            receives.repost(receiveOne(pair, 1));
            List<SendPair.Receive> posted = pair.receivesPostedOn(pair.server());
            assertEquals(201, posted.size());
            for (int q = 0; q < qps; q++) {
                for (int i = 0; i < 100; i++) {
                    long slot = i % 64 * 64L;
                    assertEquals(new SendPair.Receive(q, q * part + slot, 256), posted.get(q * 100 + i),
                            "QP " + q + "'s receive " + i);
                }
            }
            assertEquals(new SendPair.Receive(1, part + 100 % 64 * 64L, 256), posted.get(200),
                    "a repost goes on from where the QP's receives were");
        }
    }

    /** SENDs 8 bytes to the server on QP {@code qp} and returns the id of the receive that took them. */
    private static long receiveOne(SendPair pair, int qp) {
        pair.client().send(qp, pair.client().bufferBytes() / 2, 8, 0, false);
        long[] ids = new long[pair.server().completionCapacity()];
        assertEquals(1, pair.server().poll(ids));
        return ids[0];
    }

    @Test
    void shouldPostAtThePartsStartWhenMessagesAreOverHalfAPage() {
        try (SendPair pair = new SendPair(Bandwidth.bufferBytes(8192, 1, true), 1, 4)) {
            PostedReceives receives = PostedReceives.cycling(pair.server(), 8192);
            receives.messagesOf(2049);
            receives.fill();
            assertEquals(4, pair.receivesPostedOn(pair.server()).stream().filter(r -> r.offset() == 0).count());
        }
    }

    @Test
    void shouldShortenTheCycleWhenAPartHasNoRoomForTheLargestMessagePastIt() {
        // no cycle's room: a part of 4096 bytes, messages of up to 4000: only the slots at 0 and 64 leave room for 4000
        try (SendPair pair = new SendPair(8192, 1, 6)) {
            PostedReceives receives = PostedReceives.cycling(pair.server(), 4000);
            receives.messagesOf(32);
            receives.fill();
            assertEquals(List.of(0L, 64L, 0L, 64L, 0L, 64L),
                    pair.receivesPostedOn(pair.server()).stream().map(SendPair.Receive::offset).toList());
            assertTrue(pair.receivesPostedOn(pair.server()).stream().allMatch(r -> r.bytes() == 4000));
            assertThrows(IllegalArgumentException.class, () -> receives.messagesOf(4001));
        }
    }

    @Test
    void shouldReceiveALargerSizeIntoReceivesPostedForASmallerOne() {
        // the server keeps the receives of one size posted into the next: each must hold the largest message
        BenchSettings small = settings(BenchTest.SEND_BW, 64, 500, 0, 16, 4);
        BenchSettings large = settings(BenchTest.SEND_BW, 2048, 500, 0, 16, 4);
        try (SendPair pair = new SendPair(Bandwidth.bufferBytes(2048, 1, true), 1, 50)) {
            PostedReceives receives = PostedReceives.cycling(pair.server(), 2048);
            receives.messagesOf(64);
            receives.fill();
            assertEquals(500L, stream(pair, receives, small, 64).received());
            receives.messagesOf(2048);
            Streamed second = stream(pair, receives, large, 2048);
            assertEquals(500, second.summary().iterations());
            assertEquals(500L, second.received());
        }
    }

    /** What {@link #stream} saw: the client's summary and the receives the server's sink completed. */
    private record Streamed(BandwidthSummary summary, long received) {
    }

    /** Runs send-bw of {@code size} from the pair's client while the server's sink drains, as the server does. */
    private static Streamed stream(SendPair pair, PostedReceives receives, BenchSettings s, int size) {
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Long> received = CompletableFuture.supplyAsync(
                () -> ReceiveSink.drain(pair.server(), receives, done::get, TimeUnit.SECONDS.toNanos(10)));
        BandwidthSummary summary = assertTimeoutPreemptively(LIMIT, () -> Bandwidth.run(pair.client(), s, size, quiet()));
        done.set(true);
        return new Streamed(summary, assertTimeoutPreemptively(LIMIT, () -> received.get()));
    }
}
