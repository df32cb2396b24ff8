package io.remus.ds.context;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.LockWord;
import io.remus.alock.asymmetric.ALock;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.ClosedComputeThreadException;
import io.remus.core.error.ThreadConfinementException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.BlockHeader;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.Guard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WorkerContext}: what it opens, the order it closes in (the reclaimer's last pass and slot release need
 * the compute thread), the closed state, the lock context made only on demand, and its confinement to the Java
 * thread that opened it. {@link WorkerContextOnVerbsTest} runs the same cases on the verbs fabric.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerContextTest {
    private static final int BYTES = 32;
    /** One slot per node's table: a worker that did not give its slot back makes the next open on the node fail. */
    private static final EpochOptions ONE_SLOT = EpochOptions.defaults().withSlots(1);

    /** {@return the fabric the cases run on: the simulator here, the verbs fabric in the twin} */
    Function<SimOptions, Fabric> fabric() {
        return SimFabric::new;
    }

    private TestCluster cluster() {
        return new TestCluster(fabric(), SimOptions.defaults(), 2, b -> { });
    }

    private static boolean isFree(ComputeThread t, long block) {
        return BlockHeader.state(t.read(BlockHeader.address(block))) == BlockHeader.FREE;
    }

    /**
     * Closing runs the reclaimer's last passes (the retired block is freed) and gives its slot back (the next
     * worker on the node claims the table's only slot), then closes the compute thread; the reclaimer is over the
     * worker's thread and refuses calls once closed.
     */
    @Test
    void shouldCloseTheReclaimerThenTheThreadSoThatTheLastPassAndTheSlotReleaseRun() {
        try (TestCluster c = cluster(); ComputeThread observer = c.thread(1)) {
            for (int round = 0; round < 3; round++) {
                WorkerContext w = WorkerContext.open(c.node(0), ONE_SLOT, LockOptions.defaults());
                ComputeThread t = w.thread();
                EpochReclaimer r = w.reclaimer();
                assertSame(ONE_SLOT, r.options());
                long block = t.allocator().allocate(BYTES, 1);
                try (Guard g = r.enter()) {
                    r.retire(block, BYTES);
                }
                assertFalse(isFree(observer, block), "round " + round + ": nothing freed before the close");
                w.close();
                assertTrue(w.isClosed());
                assertTrue(t.isClosed(), "round " + round + ": the compute thread is closed");
                assertEquals(0, r.unreclaimedBytes(), "round " + round + ": the reclaimer's last passes ran");
                assertTrue(isFree(observer, block), "round " + round);
                assertThrows(BadArgumentException.class, r::enter, "round " + round + ": the reclaimer is closed");
            }
        }
    }

    /** After close every accessor throws the compute thread's closed exception; close again does nothing. */
    @Test
    void shouldRefuseEveryCallOnceClosedAndCloseOnlyOnce() {
        try (TestCluster c = cluster()) {
            WorkerContext w = WorkerContext.open(c.node(0));
            assertFalse(w.isClosed());
            w.close();
            w.close();
            assertTrue(w.isClosed());
            List<Supplier<?>> calls = List.of(w::thread, w::reclaimer, w::locks);
            for (Supplier<?> call : calls) {
                ClosedComputeThreadException e = assertThrows(ClosedComputeThreadException.class, call::get);
                assertTrue(e.getMessage().contains("worker context"), e.getMessage());
            }
            assertFalse(w.locksMade(), "a closed worker makes no lock context");
        }
    }

    /**
     * A worker that never asks for its lock context has none; the first {@link WorkerContext#locks()} makes it over
     * the worker's thread, every later call returns it, and a queue lock works through it.
     */
    @Test
    void shouldMakeTheLockContextOnlyWhenAskedAndKeepIt() {
        try (TestCluster c = cluster()) {
            try (WorkerContext w = WorkerContext.open(c.node(0))) {
                w.reclaimer().reclaim();
                assertFalse(w.locksMade(), "no lock context before locks()");
            }
            LockOptions options = LockOptions.defaults();
            try (WorkerContext w = WorkerContext.open(c.node(1), EpochOptions.defaults(), options)) {
                assertFalse(w.locksMade());
                LockContext locks = w.locks();
                assertTrue(w.locksMade());
                assertSame(locks, w.locks());
                assertSame(w.thread(), locks.thread());
                assertSame(options, locks.options());
                ComputeThread t = w.thread();
                ALock lock = new ALock(locks, LockWord.allocate(t, t.allocator(), 0), false);
                lock.lock();
                lock.unlock();
                assertFalse(lock.isLocal(), "node 1's handle on node 0's lock word takes the remote path");
            }
        }
    }

    /**
     * Another Java thread is refused on every call, the close included, and nothing changes: the owner goes on
     * using the worker and closes it. {@link WorkerContext#isClosed()} answers on any thread.
     */
    @Test
    void shouldRefuseAnotherJavaThreadAndLeaveTheWorkerOpen() throws Exception {
        try (TestCluster c = cluster(); ExecutorService other = Executors.newSingleThreadExecutor()) {
            WorkerContext w = WorkerContext.open(c.node(0), ONE_SLOT, LockOptions.defaults());
            List<Runnable> calls = List.of(w::thread, w::reclaimer, w::locks, w::close);
            List<Class<?>> thrown = other.submit(() -> {
                List<Class<?>> seen = new ArrayList<>();
                for (Runnable call : calls) {
                    try {
                        call.run();
                        seen.add(null);
                    } catch (RuntimeException e) {
                        seen.add(e.getClass());
                    }
                }
                seen.add(w.isClosed() ? Boolean.class : Void.class);
                return seen;
            }).get(30, TimeUnit.SECONDS);
            assertEquals(List.of(ThreadConfinementException.class, ThreadConfinementException.class,
                    ThreadConfinementException.class, ThreadConfinementException.class, Void.class), thrown);
            assertFalse(w.isClosed());
            assertFalse(w.locksMade(), "the refused locks() made nothing");
            ComputeThread t = w.thread();
            assertFalse(t.isClosed());
            w.reclaimer().reclaim();
            w.close();
            assertTrue(t.isClosed());
            WorkerContext.open(c.node(0), ONE_SLOT, LockOptions.defaults()).close();   // the owner's close gave the slot back
            assertEquals(List.of(Void.class), other.submit(() -> {
                w.close();
                return List.<Class<?>>of(Void.class);
            }).get(30, TimeUnit.SECONDS), "once closed, close returns at once on any thread");
        }
    }

    /**
     * A close inside an open guard: the reclaimer refuses, the compute thread is closed all the same, and the
     * reclaimer's refusal is thrown.
     */
    @Test
    void shouldCloseTheThreadEvenWhenTheReclaimerRefusesToClose() {
        try (TestCluster c = cluster()) {
            WorkerContext w = WorkerContext.open(c.node(0));
            ComputeThread t = w.thread();
            w.reclaimer().enter();
            BadArgumentException e = assertThrows(BadArgumentException.class, w::close);
            assertFalse(e instanceof ClosedComputeThreadException, e.toString());
            assertTrue(w.isClosed());
            assertTrue(t.isClosed());
        }
    }

    /** A reclaimer that cannot be opened (the node's table is full) fails the open; null arguments by name. */
    @Test
    void shouldFailTheOpenWhenTheReclaimerCannotBeOpenedAndRefuseNulls() {
        try (TestCluster c = cluster(); WorkerContext held = WorkerContext.open(c.node(0), ONE_SLOT, LockOptions.defaults())) {
            assertThrows(AllocationExhaustedException.class,
                    () -> WorkerContext.open(c.node(0), ONE_SLOT, LockOptions.defaults()));
            assertEquals("node", assertThrows(NullPointerException.class,
                    () -> WorkerContext.open((io.remus.core.RemusNode) null)).getMessage());
            assertEquals("cluster", assertThrows(NullPointerException.class,
                    () -> WorkerContext.open((RemusCluster) null)).getMessage());
            assertEquals("epochOptions", assertThrows(NullPointerException.class,
                    () -> WorkerContext.open(c.node(0), null, LockOptions.defaults())).getMessage());
            assertEquals("lockOptions", assertThrows(NullPointerException.class,
                    () -> WorkerContext.open(c.node(0), ONE_SLOT, null)).getMessage());
            assertFalse(held.isClosed());
        }
    }
}
