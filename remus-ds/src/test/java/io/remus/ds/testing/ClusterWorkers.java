package io.remus.ds.testing;

import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A cluster test's worker threads on one node, started together with the other hosts' workers: each
 * attaches first (its compute thread's lanes to every node connect on first use, which takes seconds
 * in an emulated guest) and calls its start signal; once all have, the node meets the others at the
 * barrier and lets its workers go.
 */
public final class ClusterWorkers {
    private ClusterWorkers() {
    }

    /** One worker's work. */
    @FunctionalInterface
    public interface Work {
        /**
         * @param thread its compute thread, closed after
         * @param index  the worker's index on this node
         * @param start  to call once attached: returns when every host's workers may start
         */
        void run(ComputeThread thread, int index, Start start) throws Exception;
    }

    /** A worker's signal that it attached, returning when it may start. */
    @FunctionalInterface
    public interface Start {
        /** @throws InterruptedException when interrupted while waiting */
        void attachedAwaitStart() throws InterruptedException;
    }

    /**
     * Runs {@code workers} threads of {@code work} on this node and waits for them.
     *
     * @param node    this node
     * @param workers the number of threads
     * @param barrier the barrier of every node's main thread
     * @param bound   how long attaching, starting and running may each take
     * @param work    the work
     * @throws AssertionError when a worker failed (each failure suppressed in it) or outran the bound
     */
    public static void run(RemusNode node, int workers, ClusterBarrier barrier, Duration bound, Work work)
            throws InterruptedException {
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        CountDownLatch attached = new CountDownLatch(workers);
        CountDownLatch go = new CountDownLatch(1);
        Start start = () -> {
            attached.countDown();
            if (!go.await(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("no start within " + bound);
            }
        };
        for (int w = 0; w < workers; w++) {
            int index = w;
            Thread t = new Thread(() -> {
                try (ComputeThread ct = node.newComputeThread()) {
                    work.run(ct, index, start);
                } catch (Throwable e) {
                    failures.add(e);
                    attached.countDown();
                }
            }, "worker-" + w + "@node" + node.config().nodeId());
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        if (!attached.await(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("workers did not attach within " + bound);
        }
        barrier.await();
        go.countDown();
        for (Thread t : threads) {
            t.join(bound.toMillis());
        }
        if (!failures.isEmpty()) {
            AssertionError e = new AssertionError("a worker failed");
            failures.forEach(e::addSuppressed);
            throw e;
        }
        if (threads.stream().anyMatch(Thread::isAlive)) {
            throw new AssertionError("a worker still ran after " + bound);
        }
    }
}
