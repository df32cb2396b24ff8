package io.remus.bench.lock;

import io.remus.alock.kind.LockKind;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockBenchmarkTest {
    static Stream<Duration> unusableTimeouts() {
        return Stream.of(Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(-5), Timeouts.MAX_FINITE.plusNanos(1),
                Duration.ofSeconds(Long.MAX_VALUE), ChronoUnit.FOREVER.getDuration());
    }

    @ParameterizedTest
    @MethodSource("unusableTimeouts")
    void shouldRefuseBenchmarkDurationNamingItsValueWhenUnusable(Duration duration) {
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> new LockBenchmarkConfig(LockKind.SPIN, 1, 1, 1, 1, 1, 1, duration, 1));
        assertTrue(e.getMessage().contains("duration " + duration), e.getMessage());
    }

    @Test
    void shouldThrowNullPointerNamingTheParameterWhenNull() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> new LockBenchmarkConfig(LockKind.SPIN, 1, 1, 1, 1, 1, 1, null, 1));
        assertEquals("duration", e.getMessage());
        e = assertThrows(NullPointerException.class,
                () -> new LockBenchmarkConfig(null, 1, 1, 1, 1, 1, 1, Duration.ofSeconds(1), 1));
        assertEquals("kind", e.getMessage());
    }

    static Stream<Arguments> fabricsAndKinds() {
        return Fabrics.all().flatMap(f -> Stream.of(LockKind.values()).map(k -> Arguments.of(f, k)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    void shouldCountEveryOperationInTheHistogramWhenRunOnAFabric(Function<SimOptions, Fabric> make, LockKind kind) throws Exception {
        LockBenchmarkConfig config = new LockBenchmarkConfig(kind, 2, 2, 0.5, 8, 4, 4, Duration.ofMillis(200), 1);
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            LockBenchmarkResult r = LockBenchmark.run(fabric, config);
            assertTrue(r.operations() > 0);
            assertTrue(r.localOperations() > 0 && r.localOperations() < r.operations(), "both local and remote keys were used");
            assertEquals(r.operations(), LongStream.of(r.latencyLog2Nanos()).sum());
            assertTrue(r.throughputPerSecond() > 0);
            assertTrue(r.latencyUpperBoundNanos(0.5) <= r.latencyUpperBoundNanos(0.99));
        }
    }

    /**
     * Every pair of a run with two critical-section operations on the ConnectX-5 cost model includes two READs and
     * two WRITEs on another node, each at least the model's 2 us round trip, where an ALock pair on its own node
     * costs no NIC operation at all: the model's times are lower bounds, so this holds on any host.
     */
    @Test
    void shouldMakeTheCriticalSectionsRdmaOperationsInEveryPairWhenAsked() throws Exception {
        SimOptions model = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5);
        long[] fastest = {Long.MAX_VALUE, Long.MAX_VALUE};
        for (int cs = 0; cs <= 2; cs += 2) {
            int slot = cs / 2;
            LockBenchmarkConfig config = new LockBenchmarkConfig(LockKind.ALOCK, 2, 1, 1.0, 4, 4, 4, Duration.ofMillis(200),
                    1, cs);
            try (Fabric fabric = new SimFabric(model)) {
                LockBenchmarkResult r = LockBenchmark.run(fabric, config, worker -> nanos -> {
                    synchronized (fastest) {
                        fastest[slot] = Math.min(fastest[slot], nanos);
                    }
                });
                assertEquals(r.operations(), r.localOperations(), "every key on the worker's own node");
            }
        }
        assertTrue(fastest[0] < 4 * 2_000, "an empty critical section on the lock's home makes no NIC operation: "
                + fastest[0] + " ns");
        assertTrue(fastest[1] >= 4 * 2_000, "two READs and two WRITEs of at least 2 us each: " + fastest[1] + " ns");
    }

    @Test
    void shouldHandEverySampleToItsWorkersSinkWhenSinksAreGiven() throws Exception {
        LockBenchmarkConfig config = new LockBenchmarkConfig(LockKind.ALOCK, 2, 2, 0.5, 8, 4, 4, Duration.ofMillis(200), 1);
        long[] counts = new long[4];
        long[] negative = new long[1];
        try (Fabric fabric = new SimFabric(SimOptions.defaults())) {
            LockBenchmarkResult r = LockBenchmark.run(fabric, config, worker -> nanos -> {
                counts[worker]++;
                if (nanos < 0) {
                    negative[0]++;
                }
            });
            assertEquals(r.operations(), LongStream.of(counts).sum());
            assertTrue(LongStream.of(counts).allMatch(c -> c > 0), "every worker recorded samples");
            assertEquals(0, negative[0]);
        }
    }

    @Test
    void shouldRejectABadConfiguration() {
        assertThrows(BadArgumentException.class,
                () -> new LockBenchmarkConfig(LockKind.ALOCK, 3, 1, 0.5, 2, 1, 1, Duration.ofMillis(1), 0), "fewer keys than nodes");
        assertThrows(BadArgumentException.class,
                () -> new LockBenchmarkConfig(LockKind.ALOCK, 1, 1, 1.5, 2, 1, 1, Duration.ofMillis(1), 0), "pLocal above 1");
        assertThrows(BadArgumentException.class,
                () -> new LockBenchmarkConfig(LockKind.ALOCK, 1, 1, 0.5, 2, 0, 1, Duration.ofMillis(1), 0), "zero budget");
        assertThrows(BadArgumentException.class,
                () -> new LockBenchmarkConfig(LockKind.ALOCK, 1, 1, 0.5, 2, 1, 1, Duration.ofMillis(1), 0, -1), "negative cs ops");
        assertThrows(BadArgumentException.class, () -> new LockBenchmarkConfig(LockKind.ALOCK, 1, 1, 0.5, 2, 1, 1,
                Duration.ofMillis(1), 0, LockBenchmarkConfig.MAX_CRITICAL_SECTION_OPS + 1), "too many cs ops");
        assertEquals(LockKind.ALOCK_REMOTE_ONLY, LockKind.parse("alock-remote-only"));
        assertThrows(BadArgumentException.class, () -> LockKind.parse("ticket"));
    }
}
