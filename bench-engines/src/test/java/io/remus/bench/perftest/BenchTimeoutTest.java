package io.remus.bench.perftest;

import io.remus.bench.stats.LatencyRecorder;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class BenchTimeoutTest {
    private static BenchSettings settings(BenchTest test) {
        return new BenchSettings(test, List.of(8), 10, 0, null, null, test.defaultTxDepth(), 1, 16,
                1, AtomicType.FETCH_AND_ADD, Duration.ofMillis(200));
    }

    private static ProgressLine quiet() {
        return new ProgressLine(new PrintWriter(new StringWriter()), false);
    }

    @Test
    void shouldTimeOutWhenReadNeverCompletes() {
        try (NeverCompletingConnection c = new NeverCompletingConnection()) {
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(BenchTimeoutException.class,
                    () -> RoundTripLatency.run(c, settings(BenchTest.READ_LAT), 8, LatencyRecorder.withoutIntervals(),
                            quiet())));
        }
    }

    @Test
    void shouldTimeOutWhenPeerNeverAnswersPing() {
        try (NeverCompletingConnection c = new NeverCompletingConnection()) {
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(BenchTimeoutException.class,
                    () -> WritePingPong.client(c, settings(BenchTest.WRITE_LAT), 8, LatencyRecorder.withoutIntervals(),
                            quiet())));
        }
    }

    @Test
    void shouldTimeOutWhenBandwidthCompletionsNeverCome() {
        try (NeverCompletingConnection c = new NeverCompletingConnection()) {
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(BenchTimeoutException.class,
                    () -> Bandwidth.run(c, settings(BenchTest.WRITE_BW), 8, quiet())));
        }
    }
}
