package io.remus.ds.testing;

import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.Reclaimer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The progress check of the frozen-thread tests of every wait-free and lock-free object: on the simulator,
 * with each thread's reclaimer an {@link EpochReclaimer} with {@link EpochOptions#defaults()}, one thread
 * is frozen ({@link SimFabric#freeze}) before each of the first {@link #FREEZE_POINTS} work requests of its
 * operations in turn, and the others must complete, while it stays frozen, at least half as many operations
 * as in an equally long window in which it runs.
 *
 * <p>The check compares counts within one run: window {@code F_k} (thread frozen before its work request
 * {@code k}) against the smaller of the unfrozen windows just before and just after it, so that a change
 * of the host's load across the run does not count against the object. Each window lasts half a default
 * lease and starts once the thread is frozen, so that it falls inside the lease of the guard the frozen
 * operation holds (where the work request is inside one): the epoch stays held back through the whole
 * window, and a reclaimer that parks its callers until the epoch advances stops the others for most of it. Every thread paces itself (it parks
 * for a few microseconds after each operation), so that the counts depend on the timer more than on the
 * host's load, and what the others retire while the epoch is held back stays within the cluster's memory.
 *
 * <p>Threads: the frozen one on node 0, {@link #LIVE_NODES} live ones; the objects are expected on node 1,
 * so that every operation of every thread goes through the fabric.
 */
public final class FrozenRate {
    /** How many freeze points are tried: before work request 0, 1, ..., of the frozen thread's operations. */
    public static final int FREEZE_POINTS = 10;
    /** The nodes of the live threads. */
    public static final int[] LIVE_NODES = {0, 2};
    /** The node of the thread that is frozen. */
    public static final int FROZEN_NODE = 0;
    private static final Duration WINDOW = EpochOptions.defaults().lease().dividedBy(2);
    private static final long PACE_NANOS = 20_000;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration MAX_FROZEN = Duration.ofSeconds(90);

    private FrozenRate() {
    }

    /** One thread's use of the object under test. */
    @FunctionalInterface
    public interface Handle {
        /** Runs one operation on the object. */
        void operate();
    }

    /** Makes one thread's handle on the object under test. */
    @FunctionalInterface
    public interface Attach {
        /**
         * @param index     the thread's index: 0 for the one that is frozen, 1 and up for the live ones
         * @param thread    the thread's compute thread
         * @param reclaimer its reclaimer (default options)
         * @return its handle
         */
        Handle attach(int index, ComputeThread thread, Reclaimer reclaimer);
    }

    /**
     * Runs the check (see the class).
     *
     * @param c      a simulated cluster of 3 nodes or more
     * @param attach how each thread gets its handle
     */
    public static void assertOthersKeepHalfTheirRate(TestCluster c, Attach attach) throws Exception {
        SimFabric sim = (SimFabric) c.fabric();
        LongAdder liveOps = new LongAdder();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Semaphore paused = new Semaphore(0);
        Semaphore resume = new Semaphore(0);
        AtomicBoolean pause = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        Thread frozen = new Thread(() -> run(c, 0, FROZEN_NODE, attach, failure, stop, h -> {
            if (pause.getAndSet(false)) {
                paused.release();
                try {
                    if (!resume.tryAcquire(WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
                        throw new AssertionError("never resumed");
                    }
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            h.operate();
        }), "frozen@node" + FROZEN_NODE);
        threads.add(frozen);
        for (int i = 0; i < LIVE_NODES.length; i++) {
            int node = LIVE_NODES[i];
            int index = i + 1;
            threads.add(new Thread(() -> run(c, index, node, attach, failure, stop, h -> {
                h.operate();
                liveOps.increment();
            }), "live-" + i + "@node" + node));
        }
        for (Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
        long[] unfrozen = new long[FREEZE_POINTS + 1];
        long[] frozenWindow = new long[FREEZE_POINTS];
        SimFreeze freeze = null;
        try {
            window(liveOps, failure);
            unfrozen[0] = window(liveOps, failure);
            for (int k = 0; k < FREEZE_POINTS; k++) {
                pause.set(true);
                assertTrue(paused.tryAcquire(WAIT.toNanos(), TimeUnit.NANOSECONDS), "the thread to freeze finished an operation");
                freeze = sim.freeze(frozen, k, MAX_FROZEN);
                resume.release();
                assertTrue(freeze.awaitFrozen(WAIT), "frozen before its work request " + k);
                frozenWindow[k] = window(liveOps, failure);
                assertTrue(freeze.isFrozen(), "it stayed frozen through the window");
                freeze.release();
                freeze = null;
                unfrozen[k + 1] = window(liveOps, failure);
            }
        } finally {
            if (freeze != null) {
                freeze.release();
            }
            stop.set(true);
            resume.release();
            for (Thread t : threads) {
                t.join(WAIT.toMillis());
            }
        }
        rethrow(failure);
        StringBuilder counts = new StringBuilder("operations of the live threads per window, unfrozen | frozen before"
                + " work request k: ");
        for (int k = 0; k < FREEZE_POINTS; k++) {
            counts.append(unfrozen[k]).append(" | ").append(k).append(": ").append(frozenWindow[k]).append(", ");
        }
        counts.append(unfrozen[FREEZE_POINTS]);
        for (int k = 0; k < FREEZE_POINTS; k++) {
            long base = Math.min(unfrozen[k], unfrozen[k + 1]);
            assertTrue(2 * frozenWindow[k] >= base, "frozen before work request " + k + ", the others completed "
                    + frozenWindow[k] + " operations, fewer than half of the " + base + " they complete unfrozen; " + counts);
        }
        for (Thread t : threads) {
            assertTrue(!t.isAlive(), t.getName() + " finished");
        }
    }

    /** The body of one loop iteration of a thread. */
    @FunctionalInterface
    private interface Step {
        void run(Handle h);
    }

    private static void run(TestCluster c, int index, int node, Attach attach, AtomicReference<Throwable> failure, AtomicBoolean stop,
                            Step step) {
        try (ComputeThread t = c.thread(node); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
            Handle h = attach.attach(index, t, r);
            while (!stop.get() && failure.get() == null) {
                step.run(h);
                LockSupport.parkNanos(PACE_NANOS);
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, new AssertionError(Thread.currentThread().getName() + " failed", e));
        }
    }

    private static long window(LongAdder ops, AtomicReference<Throwable> failure) throws Exception {
        long before = ops.sum();
        Thread.sleep(WINDOW.toMillis());
        rethrow(failure);
        return ops.sum() - before;
    }

    private static void rethrow(AtomicReference<Throwable> failure) {
        Throwable e = failure.get();
        if (e != null) {
            throw new AssertionError("a thread failed", e);
        }
    }
}
