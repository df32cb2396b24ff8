package io.remus.bench.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.ds.identity.StructureIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ObjectBenchmark} on the simulator, by behaviour rather than speed: every object runs under
 * every implementation, and with one worker stalled in the middle of an operation the others complete
 * operations under the wait-free implementation and none under a lock.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ObjectBenchmarkTest {
    /**
     * The least a stall lasts in these runs: it is due a quarter into the run, lasts half of it, and is
     * cut short by the run's end when worker 0 starts it late (under the unfair spin lock it may wait
     * long for the lock it then stalls in).
     */
    private static final Duration MIN_STALL = Duration.ofMillis(100);

    private static ObjectBenchmarkConfig config(ObjectKind object, ImplKind impl, Duration duration, boolean stall) {
        return new ObjectBenchmarkConfig(object, impl, 2, 2, duration, stall, 16, 64, 16L << 20, 1);
    }

    private static ObjectBenchmarkResult run(ObjectBenchmarkConfig config, AtomicLong recorded) throws InterruptedException {
        try (SimFabric fabric = new SimFabric(SimOptions.defaults())) {
            return ObjectBenchmark.run(fabric, config, worker -> nanos -> recorded.incrementAndGet());
        }
    }

    @ParameterizedTest
    @EnumSource(ObjectKind.class)
    void shouldRunEveryImplementationOfTheObjectAndCountItsRdmaOperations(ObjectKind object) throws InterruptedException {
        for (ImplKind impl : ImplKind.values()) {
            AtomicLong recorded = new AtomicLong();
            ObjectBenchmarkResult r = run(config(object, impl, Duration.ofMillis(150), false), recorded);
            String what = object + " " + impl.flagName() + ": " + r;
            assertTrue(r.ops() > 0, what);
            assertEquals(r.ops(), recorded.get(), "every operation's latency reached its sink: " + what);
            assertTrue(r.postedPerOp() > 0, "the workers of node 1 post RDMA operations: " + what);
            assertEquals(0, r.stallNanos(), what);
            assertTrue(r.opsPerSecond() > 0, what);
        }
    }

    @ParameterizedTest
    @EnumSource(ObjectKind.class)
    void shouldFreeTheObjectWhenTheRunEnds(ObjectKind object) throws InterruptedException {
        for (ImplKind impl : ImplKind.values()) {
            int[] state = new int[1];
            try (SimFabric fabric = new SimFabric(SimOptions.defaults())) {
                ObjectBenchmark.run(fabric, config(object, impl, Duration.ofMillis(30), false), worker -> nanos -> { },
                        (node, ptr) -> {
                            try (ComputeThread t = node.newComputeThread()) {
                                state[0] = BlockHeader.state(t.read(
                                        BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES))));
                            }
                        });
            }
            assertEquals(BlockHeader.FREE, state[0], object + " " + impl.flagName()
                    + ": the creator's destroy after the workers closed freed the object");
        }
    }

    @ParameterizedTest
    @EnumSource(value = ObjectKind.class, names = {"QUEUE", "COUNTER"})
    void shouldCompleteOthersOperationsDuringAStallOnlyWhenWaitFree(ObjectKind object) throws InterruptedException {
        for (ImplKind impl : ImplKind.values()) {
            ObjectBenchmarkConfig config = config(object, impl, Duration.ofMillis(1200), true);
            // The stall is timed in real time: on a loaded host worker 0 may reach it too late to stand still for
            // MIN_STALL before the run ends, and such a run shows nothing; up to three runs until one stalled.
            AtomicLong recorded = new AtomicLong();
            ObjectBenchmarkResult r = run(config, recorded);
            for (int retry = 0; retry < 2 && r.stallNanos() < MIN_STALL.toNanos(); retry++) {
                recorded.set(0);
                r = run(config, recorded);
            }
            String what = object + " " + impl.flagName() + ": " + r;
            assertTrue(r.stallNanos() >= MIN_STALL.toNanos() && r.stallNanos() <= config.stallLength().toNanos() * 3 / 2,
                    "worker 0 stood still: " + what);
            assertEquals(r.ops() - r.stalledOps(), recorded.get(), "only the live workers' latencies: " + what);
            if (impl == ImplKind.WAITFREE) {
                assertTrue(r.othersDuringStall() >= 10, "the others went on: " + what);
            } else {
                assertTrue(r.othersDuringStall() < config.workers(),
                        "no other operation completed while the holder stood still (at most one each published late): " + what);
                assertTrue(r.ops() - r.stalledOps() > r.othersDuringStall(), "the others ran before and after: " + what);
            }
        }
    }

    @Test
    void shouldWarmUpThenRunEveryConfigurationOnAFreshFabricWhenGivenSeveral() throws InterruptedException {
        List<ObjectBenchmarkConfig> configs = List.of(config(ObjectKind.COUNTER, ImplKind.WAITFREE, Duration.ofMillis(50), false),
                config(ObjectKind.COUNTER, ImplKind.SPIN, Duration.ofMillis(50), false));
        int[] fabrics = {0};
        List<ObjectRun> runs = ObjectRunner.run(() -> {
            fabrics[0]++;
            return new SimFabric(SimOptions.defaults());
        }, configs, Duration.ofMillis(10));
        assertEquals(configs, runs.stream().map(r -> r.result().config()).toList());
        assertEquals(ObjectBenchmarkConfig.warmUps(configs, Duration.ofMillis(10)).size() + 2, fabrics[0],
                "a fresh fabric per warm-up and per measured run");
        assertTrue(runs.stream().allMatch(r -> r.result().ops() > 0 && r.latency().count() > 0), runs.toString());
    }

    @Test
    void shouldRefuseAStallWithOneWorkerAndParseTheFlagNames() {
        assertThrows(BadArgumentException.class,
                () -> ObjectBenchmarkConfig.of(ObjectKind.QUEUE, ImplKind.WAITFREE, 1, 1, Duration.ofSeconds(1), true));
        assertThrows(BadArgumentException.class,
                () -> ObjectBenchmarkConfig.of(ObjectKind.QUEUE, ImplKind.WAITFREE, 1, 2, Duration.ofMillis(1), false));
        assertEquals(ObjectKind.SST, ObjectKind.parse("SST"));
        assertEquals(ImplKind.ALOCK, ImplKind.parse("alock"));
        assertThrows(BadArgumentException.class, () -> ImplKind.parse("mcs"));
        assertThrows(BadArgumentException.class, () -> ObjectKind.parse("map"));
    }
}
