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
 * of the host's load across the run does not count against the object; a freeze point fails only when
 * {@link #ATTEMPTS} such windows in a row all fall below half. Each window lasts half a default
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
    /**
     * How many windows a freeze point gets: the rate is real time on a shared host, so one window below half
     * can be the host's load; an object that stops the others falls below half in every window.
     */
    static final int ATTEMPTS = 3;

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
        StringBuilder counts = new StringBuilder("operations of the live threads per window, unfrozen | frozen before"
                + " work request k: ");
        String shortfall = null;
        SimFreeze freeze = null;
        try {
            window(liveOps, failure);
            long before = window(liveOps, failure);
            counts.append(before);
            for (int k = 0; k < FREEZE_POINTS && shortfall == null; k++) {
                boolean kept = false;
                for (int attempt = 0; attempt < ATTEMPTS && !kept; attempt++) {
                    pause.set(true);
                    assertTrue(paused.tryAcquire(WAIT.toNanos(), TimeUnit.NANOSECONDS), "the thread to freeze finished an operation");
                    freeze = sim.freeze(frozen, k, MAX_FROZEN);
                    resume.release();
                    assertTrue(freeze.awaitFrozen(WAIT), "frozen before its work request " + k);
                    long frozenOps = window(liveOps, failure);
                    assertTrue(freeze.isFrozen(), "it stayed frozen through the window");
                    freeze.release();
                    freeze = null;
                    long after = window(liveOps, failure);
                    long base = Math.min(before, after);
                    kept = 2 * frozenOps >= base;
                    counts.append(" | ").append(k).append(": ").append(frozenOps).append(", ").append(after);
                    if (!kept && attempt == ATTEMPTS - 1) {
                        shortfall = "frozen before work request " + k + " in each of " + ATTEMPTS + " windows, the others"
                                + " completed fewer than half of the operations they complete unfrozen (last: " + frozenOps
                                + " of " + base + "); ";
                    }
                    before = after;
                }
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
        assertTrue(shortfall == null, shortfall + counts);
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
