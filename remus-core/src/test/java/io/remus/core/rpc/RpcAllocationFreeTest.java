package io.remus.core.rpc;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RpcEndpoint#callLong} and the segment {@link RpcEndpoint#call(int, int, MemorySegment, MemorySegment, Duration)}
 * to {@link RpcEndpoint#registerLong} and {@link RpcSegmentMethod} methods allocate nothing in steady
 * state, caller and callee together: the endpoint calls its own node, so one thread makes and serves
 * every call.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RpcAllocationFreeTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int PLUS_ONE = 1;
    private static final int COPY = 2;

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /** @return iterations (2 calls each) run first, for the JIT */
    int warmupIterations() {
        return 20_000;
    }

    /** @return iterations measured */
    int measuredIterations() {
        return 10_000;
    }

    private static long workload(RpcEndpoint ep, MemorySegment request, MemorySegment response, int iterations) {
        long sum = 0;
        for (int i = 0; i < iterations; i++) {
            sum += ep.callLong(0, PLUS_ONE, i, WAIT) - i;
            request.set(ValueLayout.JAVA_LONG, 0, i);
            sum += ep.call(0, COPY, request, response, WAIT) - request.byteSize();
            sum += response.get(ValueLayout.JAVA_LONG, 0) - i;
        }
        return sum;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldAllocateNothingWhenCallsRunInSteadyState(Function<SimOptions, Fabric> make) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long me = Thread.currentThread().threadId();
        try (Fabric fabric = make.apply(SimOptions.defaults()); Arena arena = Arena.ofConfined()) {
            RpcEndpoint ep = RpcEndpoint.create(fabric.open(0), 1, 4);
            ep.connect(ep.rings(), Duration.ofMinutes(1));
            ep.registerLong(PLUS_ONE, x -> x + 1);
            ep.register(COPY, (caller, request, length, response) -> {
                MemorySegment.copy(request, 0, response, 0, length);
                return length;
            });
            MemorySegment request = arena.allocate(64);
            MemorySegment response = arena.allocate(RpcEndpoint.MAX_PAYLOAD);
            assertEquals(warmupIterations(), workload(ep, request, response, warmupIterations()), "each callLong adds one");
            long before = mx.getThreadAllocatedBytes(me);
            long sum = workload(ep, request, response, measuredIterations());
            long allocated = mx.getThreadAllocatedBytes(me) - before;
            assertEquals(measuredIterations(), sum, "each callLong adds one, each copy comes back whole");
            assertTrue(allocated < 1024, (2L * measuredIterations()) + " calls allocated " + allocated + " bytes");
        }
    }
}
