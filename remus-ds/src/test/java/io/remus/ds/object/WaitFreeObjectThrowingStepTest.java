package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.core.fabric.Fabric;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link SequentialObject} whose step throws: the call of that operation fails with
 * {@link SequentialOperationException} carrying what the step threw, the operation takes no effect, and every
 * later call, of the same handle and of every other, works, including while the throwing call's thread is
 * frozen after announcing it (so that every other thread's help meets it).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WaitFreeObjectThrowingStepTest {
    private static final long ADD = 1;
    private static final long THROW = 2;
    private static final int HOME = 1;
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** A fetch-and-add counter whose {@code THROW d} throws, naming d; {@code ADD d} returns the count before. */
    private static final class ThrowingCounter implements SequentialObject<Long> {
        @Override
        public int stateBytes() {
            return 8;
        }

        @Override
        public Long initialState() {
            return 0L;
        }

        @Override
        public void store(Long state, MemorySegment to) {
            to.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, state);
        }

        @Override
        public Long load(MemorySegment from) {
            return from.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        }

        @Override
        public Step<Long> apply(Long state, long operation, long argument) {
            if (operation == THROW) {
                throw new IllegalStateException("refused " + argument);
            }
            return new Step<>(state + argument, 0, state);
        }
    }

    private static void assertFailed(SequentialOperationException e, long argument) {
        assertEquals(THROW, e.operation());
        assertEquals(argument, e.argument());
        IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause(), "what the step threw");
        assertEquals("refused " + argument, cause.getMessage());
    }

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFailOnlyTheThrowingCallAndLeaveTheStateAsItWas(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> { });
             ComputeThread t = c.thread(0); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
            WaitFreeObject<Long> o = WaitFreeObject.create(t, r, HOME, 4, new ThrowingCounter());
            assertEquals(0, o.apply(ADD, 5));
            SequentialOperationException e = assertThrows(SequentialOperationException.class, () -> o.apply(THROW, 7));
            assertFailed(e, 7);
            assertEquals(5L, o.read(), "the throwing operation took no effect");
            assertEquals(5, o.apply(ADD, 1), "the next call works");
            assertFailed(assertThrows(SequentialOperationException.class, () -> o.apply(THROW, 8)), 8);
            assertFailed(assertThrows(SequentialOperationException.class, () -> o.apply(THROW, 9)), 9);
            assertEquals(6, o.apply(ADD, 10));
            assertEquals(16L, o.read());
            assertEquals(o.announced(), o.applied(o.slot()), "every call, the failed ones too, was completed once");
            try (ComputeThread t2 = c.thread(2); EpochReclaimer r2 = new EpochReclaimer(t2, t2.allocator())) {
                WaitFreeObject<Long> other = WaitFreeObject.attach(t2, r2, o.ptr(), new ThrowingCounter());
                assertEquals(16, other.apply(ADD, 1), "another handle works");
                assertFailed(assertThrows(SequentialOperationException.class, () -> other.apply(THROW, 3)), 3);
                assertEquals(17L, other.read());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFailEveryThrowingCallAndApplyEveryOtherWhenThreadsOnSeveralNodesMixThem(Function<SimOptions, Fabric> make)
            throws Exception {
        int threads = 4;
        int ops = 40;
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.segmentSize(16 << 20))) {
            long ptr;
            try (ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                ptr = WaitFreeObject.create(t, r, HOME, threads + 2, new ThrowingCounter()).ptr();
            }
            AtomicLong added = new AtomicLong();
            c.runOnThreads(new int[] {0, 1, 2, 0}, (index, t) -> {
                try (EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                    WaitFreeObject<Long> o = WaitFreeObject.attach(t, r, ptr, new ThrowingCounter());
                    for (int i = 0; i < ops; i++) {
                        if ((i + index) % 3 == 0) {
                            long arg = index * 1000L + i;
                            assertFailed(assertThrows(SequentialOperationException.class, () -> o.apply(THROW, arg)), arg);
                        } else {
                            o.apply(ADD, 1);
                            added.incrementAndGet();
                        }
                    }
                    assertEquals(o.announced(), o.applied(o.slot()), "every call of thread " + index + " completed once");
                }
            });
            try (ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                WaitFreeObject<Long> o = WaitFreeObject.attach(t, r, ptr, new ThrowingCounter());
                assertEquals(added.get(), o.read(), "only the operations that did not throw took effect");
            }
        }
    }

    /** Simulator only: it freezes a thread ({@link SimFabric#freeze}). */
    @Test
    void shouldKeepEveryOtherHandleWorkingWhileAThrowingCallIsAnnouncedAndFrozen() throws Exception {
        int live = 3;
        int ops = 200;
        int[] liveNodes = {0, 2, 2};
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> b.segmentSize(16 << 20))) {
            long ptr;
            try (ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                ptr = WaitFreeObject.create(t, r, HOME, live + 3, new ThrowingCounter()).ptr();
            }
            CountDownLatch ready = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            CompletableFuture<Throwable> frozenCall = new CompletableFuture<>();
            long[] frozenCounts = new long[2];
            Thread frozen = new Thread(() -> {
                try (ComputeThread t = c.thread(0); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                    WaitFreeObject<Long> o = WaitFreeObject.attach(t, r, ptr, new ThrowingCounter());
                    ready.countDown();
                    assertTrue(go.await(WAIT.toSeconds(), TimeUnit.SECONDS), "told to go");
                    try {
                        o.apply(THROW, 42);
                        frozenCall.complete(null);
                    } catch (Throwable e) {
                        frozenCall.complete(e);
                    }
                    o.apply(ADD, 1000);
                    frozenCounts[0] = o.announced();
                    frozenCounts[1] = o.applied(o.slot());
                } catch (Throwable e) {
                    ready.countDown();
                    frozenCall.completeExceptionally(e);
                }
            }, "frozen@node0");
            frozen.setDaemon(true);
            frozen.start();
            assertTrue(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            SimFreeze freeze = ((SimFabric) c.fabric()).freeze(frozen, 3, Duration.ofSeconds(90));
            go.countDown();
            assertTrue(freeze.awaitFrozen(WAIT), "the throwing call announced its operation and stopped");
            assertEquals(Opcode.READ, freeze.frozenAt(), "frozen after its announcement, before reading the state");

            AtomicLong added = new AtomicLong();
            AtomicLongArray failedCalls = new AtomicLongArray(live);
            c.runOnThreads(liveNodes, (index, t) -> {
                try (EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                    WaitFreeObject<Long> o = WaitFreeObject.attach(t, r, ptr, new ThrowingCounter());
                    for (int i = 0; i < ops; i++) {
                        if (i % 5 == 4) {
                            long arg = index * 1000L + i;
                            assertFailed(assertThrows(SequentialOperationException.class, () -> o.apply(THROW, arg)), arg);
                            failedCalls.incrementAndGet(index);
                        } else {
                            o.apply(ADD, 1);
                            added.incrementAndGet();
                        }
                    }
                    assertEquals(o.announced(), o.applied(o.slot()), "every call of thread " + index + " completed once");
                }
            });
            assertTrue(freeze.isFrozen(), "the throwing call stayed frozen while the others ran");
            assertFalse(frozenCall.isDone());
            freeze.release();
            Throwable thrown = frozenCall.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertFalse(freeze.expired());
            assertFailed(assertInstanceOf(SequentialOperationException.class, thrown, "the frozen call failed, typed"), 42);
            frozen.join(WAIT.toMillis());
            assertEquals(frozenCounts[0], frozenCounts[1], "the frozen handle's calls were completed once each");
            assertEquals(live * (ops / 5), failedCalls.get(0) + failedCalls.get(1) + failedCalls.get(2));
            try (ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                WaitFreeObject<Long> o = WaitFreeObject.attach(t, r, ptr, new ThrowingCounter());
                assertEquals(added.get() + 1000, o.read(), "only the operations that did not throw took effect");
            }
        }
    }
}
