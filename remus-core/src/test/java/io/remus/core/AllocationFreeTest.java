package io.remus.core;

import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sync, async and batched operations allocate nothing in steady state. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AllocationFreeTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    private static long sink;

    private static void workload(ComputeThread t, long remote, long local, int iterations) {
        for (int i = 0; i < iterations; i++) {
            t.write(remote, i);
            sink += t.read(remote);
            sink += t.compareAndSwap(remote, i, i + 1);
            sink += t.fetchAndAdd(remote, 1);
            t.write(remote, 0, 64);
            t.read(remote, 64, 64);
            sink += t.read(local);
            sink += t.fetchAndAdd(local, 1);
            long a = t.fetchAndAddAsync(remote, 1, false);
            long b = t.readAsync(remote, 128, 32, true);
            long d = t.compareAndSwapAsync(local, 0, 0, false);
            sink += t.await(a) + t.await(b) + t.await(d);
            t.batch().write(remote, 0, 16).fetchAndAdd(remote, 1, 200).compareAndSwap(remote, 0, 0, 208).read(remote, 256, 32).execute();
        }
    }

    /** @return workload iterations (13 operations each) run first, for the JIT */
    int warmupIterations() {
        return 30_000;
    }

    /** @return workload iterations measured */
    int measuredIterations() {
        return 20_000;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldAllocateNothingWhenOperationsRunInSteadyState(Function<SimOptions, Fabric> make) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long me = Thread.currentThread().threadId();
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long remote = RemotePtr.offset(t.segmentBase(2, 1), 4096);
            long local = RemotePtr.offset(t.segmentBase(0, 1), 4096);
            workload(t, remote, local, warmupIterations());
            long before = mx.getThreadAllocatedBytes(me);
            workload(t, remote, local, measuredIterations());
            long allocated = mx.getThreadAllocatedBytes(me) - before;
            assertTrue(allocated < 1024, (13L * measuredIterations()) + " operations allocated " + allocated + " bytes");
        }
    }
}
