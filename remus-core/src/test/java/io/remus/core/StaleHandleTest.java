package io.remus.core;

import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.StaleHandleException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A handle is used once: awaiting or polling it after its slot moved on is a typed error, never another operation's value. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StaleHandleTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAnAwaitAfterTheSlotWasReusedAndLeaveTheNewOperationAlone(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long a = RemotePtr.offset(t.segmentBase(1, 1), 4096);
            long b = RemotePtr.offset(t.segmentBase(2, 1), 4096);
            t.write(a, 100);
            t.write(b, 200);
            long first = t.fetchAndAddAsync(a, 1, false);
            assertEquals(100, t.await(first));
            long second = t.readWordAsync(b, false);
            assertEquals(OpHandle.slot(first), OpHandle.slot(second), "the slot is reused at once");
            assertNotEquals(first, second, "with another generation");
            StaleHandleException e = assertThrows(StaleHandleException.class, () -> t.await(first));
            assertEquals(first, e.handle());
            assertTrue(e.getMessage().contains("already awaited"), e.getMessage());
            assertThrows(StaleHandleException.class, () -> t.poll(first));
            assertEquals(200, t.await(second), "the stale await neither took nor consumed the new operation");
            assertThrows(StaleHandleException.class, () -> t.await(second));
            long local = RemotePtr.offset(t.segmentBase(0, 1), 4096);
            long onOwnNode = t.readWordAsync(local, false);
            assertEquals(0, t.await(onOwnNode));
            assertThrows(StaleHandleException.class, () -> t.await(onOwnNode), "the CPU path's handles too");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseStaleBatchHandlesAndEveryOldGenerationOfASlot(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.opsInFlightPerThread(2));
             ComputeThread t = c.thread(0)) {
            long w = RemotePtr.offset(t.segmentBase(2, 1), 4096);
            long[] old = new long[50];
            for (int i = 0; i < old.length; i++) {
                old[i] = t.batch().fetchAndAdd(w, 1, 0).read(w, 8, 8).post();
                t.await(old[i]);
            }
            for (long h : old) {
                assertThrows(StaleHandleException.class, () -> t.await(h), OpHandle.toString(h));
            }
            assertEquals(50, t.read(w));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAHandleOfAnotherComputeThreadOrMadeUp(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0); ComputeThread u = c.thread(0)) {
            long w = RemotePtr.offset(t.segmentBase(1, 1), 4096);
            long theirs = u.readWordAsync(w, false);
            long mine = t.readWordAsync(w, false);
            assertEquals(OpHandle.slot(theirs), OpHandle.slot(mine));
            StaleHandleException e = assertThrows(StaleHandleException.class, () -> t.await(theirs));
            assertTrue(e.getMessage().contains("not a handle of this compute thread"), e.getMessage());
            for (long madeUp : new long[] {0, -1, Long.MAX_VALUE, mine + 1, mine ^ (1L << 20)}) {
                assertThrows(StaleHandleException.class, () -> t.await(madeUp), Long.toHexString(madeUp));
            }
            assertEquals(0, t.await(mine));
            assertEquals(0, u.await(theirs));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAHandleWhoseWaitTimedOut(Function<SimOptions, Fabric> make) {
        SimOptions slow = SimOptions.defaults().withExecutionLatencyNanos(TimeUnit.MILLISECONDS.toNanos(600));
        try (TestCluster c = new TestCluster(make, slow, 2, b -> b.operationTimeout(Duration.ofMillis(100)));
             ComputeThread t = c.thread(0)) {
            long w = RemotePtr.offset(t.segmentBase(1, 1), 4096);
            long h = t.fetchAndAddAsync(w, 1, false);
            assertThrows(RemoteTimeoutException.class, () -> t.await(h));
            StaleHandleException e = assertThrows(StaleHandleException.class, () -> t.await(h));
            assertTrue(e.getMessage().contains("timed out"), e.getMessage());
        }
    }
}
