package io.remus.ds.object;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.check.Budget;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Straddles;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.testing.Contention;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link LockedObject} on the simulator, under the spin lock and ALock: a counter from threads on three
 * nodes loses no increment, a stack's history checks as linearizable, and a call costs the lock's
 * operations plus 1 READ and at most 1 WRITE (none when the operation changes nothing), the lock's own
 * measured after its first use (ALock allocates its queue nodes then); and the object contract
 * ({@link ObjectContractTest}) under the spin lock.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LockedObjectTest extends ObjectContractTest<LockedObject<Long>> {
    private static final long ADD = 1;
    private static final int[] NODES = {0, 1, 2, 0};
    private static final int ELEMENTS = 4;

    private static SimOptions options() {
        return SimOptions.defaults().withYieldInsideNicAtomics(true);
    }

    private static TestCluster cluster() {
        return cluster(options());
    }

    private static TestCluster cluster(SimOptions options) {
        return new TestCluster(SimFabric::new, options, 3, b -> b.segmentSize(16 << 20));
    }

    private static LockContext context(ComputeThread t) {
        return new LockContext(t, LockOptions.defaults().withAcquireTimeout(Duration.ofSeconds(60)));
    }

    @Override
    StructureKind structureKind() {
        return StructureKind.LOCKED_OBJECT;
    }

    @Override
    LockedObject<Long> create(ComputeThread t, int node) {
        return LockedObject.create(context(t), LockKind.SPIN, node, new WaitFreeObjectTest.Counter());
    }

    @Override
    LockedObject<Long> attach(ComputeThread t, long ptr) {
        return LockedObject.attach(context(t), LockKind.SPIN, ptr, new WaitFreeObjectTest.Counter());
    }

    @Override
    long ptr(LockedObject<Long> handle) {
        return handle.ptr();
    }

    @Override
    void destroy(LockedObject<Long> handle) {
        handle.destroy();
    }

    @Override
    StructureKind otherKind() {
        return StructureKind.WAIT_FREE_OBJECT;
    }

    @Override
    long createOther(ComputeThread t, int node) {
        return WaitFreeObject.create(t, new NeverReclaimer(t), node, 4, new WaitFreeObjectTest.Counter()).ptr();
    }

    @Override
    List<Call<LockedObject<Long>>> rootReads() {
        return List.of(new Call<>("apply", h -> h.apply(ADD, 1)), new Call<>("read", LockedObject::read));
    }

    @Override
    void use(LockedObject<Long> handle) {
        assertEquals(0, handle.apply(ADD, 5));
        assertEquals(5L, handle.read());
    }

    @ParameterizedTest
    @EnumSource(value = LockKind.class, names = {"ALOCK", "SPIN"})
    void shouldLoseNoIncrementWhenThreadsOfThreeNodesAdd(LockKind kind) throws InterruptedException {
        int ops = 200;
        try (TestCluster c = cluster(); ComputeThread main = c.thread(2)) {
            LockedObject<Long> creator = LockedObject.create(context(main), kind, HOME, new WaitFreeObjectTest.Counter());
            AtomicLong sumOfReturns = new AtomicLong();
            c.runOnThreads(NODES, (index, t) -> {
                LockedObject<Long> counter = LockedObject.attach(context(t), kind, creator.ptr(), new WaitFreeObjectTest.Counter());
                for (int i = 0; i < ops; i++) {
                    Contention.maybeYield();
                    sumOfReturns.addAndGet(counter.apply(ADD, 1));
                    assertEquals(0, counter.status());
                }
            });
            long n = (long) NODES.length * ops;
            assertEquals(n, creator.read(), "every increment counted once");
            assertEquals(n * (n - 1) / 2, sumOfReturns.get(), "each increment returned a distinct count before it");
            creator.destroy();
        }
    }

    @ParameterizedTest
    @EnumSource(value = LockKind.class, names = {"ALOCK", "SPIN"})
    void shouldCheckAStacksHistoryAsLinearizable(LockKind kind) throws InterruptedException {
        checkStackHistory(kind, options());
    }

    /** The same history on a simulator whose segments cross a 4 GiB boundary where it allocates ({@link Straddles}). */
    @ParameterizedTest
    @EnumSource(value = LockKind.class, names = {"ALOCK", "SPIN"})
    void shouldCheckAStacksHistoryAsLinearizableWhenSegmentsCrossA4GiBBoundary(LockKind kind) throws InterruptedException {
        checkStackHistory(kind, Straddles.across(options(), kind.ordinal(), 3));
    }

    private static void checkStackHistory(LockKind kind, SimOptions options) throws InterruptedException {
        History history = new History(HistoryClock.NANO_TIME);
        try (TestCluster c = cluster(options); ComputeThread main = c.thread(2)) {
            long ptr = LockedObject.create(context(main), kind, HOME, WaitFreeStack.sequential(ELEMENTS)).ptr();
            c.runOnThreads(NODES, (index, t) -> {
                LockedObject<long[]> stack = LockedObject.attach(context(t), kind, ptr, WaitFreeStack.sequential(ELEMENTS));
                History.Recorder r = history.recorder(index);
                SplittableRandom rnd = new SplittableRandom(index);
                for (int i = 0; i < 60; i++) {
                    Contention.maybeYield();
                    if (rnd.nextBoolean()) {
                        long v = (index + 1L) * 1000 + i;
                        int op = r.invoke(BoundedContainerSpec.PUT, v);
                        stack.apply(WaitFreeStack.PUSH, v);
                        r.respond(op, stack.status() == WaitFreeStack.OK ? 1 : 0);
                    } else {
                        int op = r.invoke(BoundedContainerSpec.TAKE);
                        long v = stack.apply(WaitFreeStack.POP, 0);
                        if (stack.status() == WaitFreeStack.OK) {
                            r.respond(op, v);
                        } else {
                            r.respond(op);
                        }
                    }
                }
            });
        }
        new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)))
                .check(history.operations(), new BoundedContainerSpec(false, ELEMENTS)).assertLinearizable();
    }

    @ParameterizedTest
    @EnumSource(value = LockKind.class, names = {"ALOCK", "SPIN"})
    void shouldCostTheLockPlusOneReadAndAWriteOnlyWhenTheStateChanges(LockKind kind) {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0)) {
            LockedObject<long[]> queue = LockedObject.create(context(t), kind, HOME, WaitFreeQueue.sequential(ELEMENTS));
            queue.lock().lock();
            queue.lock().unlock();
            Counts before = Counts.of(t);
            queue.lock().lock();
            queue.lock().unlock();
            Counts lock = before.since(t);

            before = Counts.of(t);
            queue.apply(WaitFreeQueue.DEQUEUE, 0);
            Counts emptyTake = before.since(t);
            assertEquals(WaitFreeQueue.EMPTY, queue.status());
            assertEquals(lock.reads() + 1, emptyTake.reads(), "1 READ besides the lock: " + emptyTake);
            assertEquals(lock.writes(), emptyTake.writes(), "no WRITE when nothing changed: " + emptyTake);
            assertEquals(lock.compareAndSwaps(), emptyTake.compareAndSwaps());

            before = Counts.of(t);
            queue.apply(WaitFreeQueue.ENQUEUE, 7);
            Counts put = before.since(t);
            assertEquals(WaitFreeQueue.OK, queue.status());
            assertEquals(lock.reads() + 1, put.reads(), "1 READ besides the lock: " + put);
            assertEquals(lock.writes() + 1, put.writes(), "1 WRITE of the changed state: " + put);
            assertEquals(16 + 8L * ELEMENTS, put.bytesWritten() - lock.bytesWritten(), "the state's bytes, once");
            assertArrayEquals(new long[]{0, 1, 7, 0, 0, 0}, queue.read());
        }
    }

    @Test
    void shouldRefuseAMisalignedPointerAndAStateLargerThanTheBuffer() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(0)) {
            LockedObject<Long> counter = LockedObject.create(context(t), LockKind.SPIN, HOME, new WaitFreeObjectTest.Counter());
            assertThrows(BadArgumentException.class, () -> LockedObject.attach(context(t), LockKind.SPIN,
                    counter.ptr() + 8, new WaitFreeObjectTest.Counter()));
            int tooBig = (int) t.config().bufferSizePerThread();
            assertThrows(BadArgumentException.class, () -> LockedObject.create(context(t), LockKind.SPIN, HOME,
                    new WaitFreeObjectTest.Counter(tooBig)));
        }
    }
}
