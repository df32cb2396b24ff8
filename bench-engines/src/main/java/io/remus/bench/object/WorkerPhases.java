package io.remus.bench.object;

import io.remus.bench.engines.BenchWorkers;
import io.remus.core.ComputeThread;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The phases of one experiment run ({@link SharingExperiment}, {@link KvExperiment}) in one process: its worker and
 * trustee threads start; every local worker opens its handles and {@link #arrive arrives}; the steps across
 * processes ({@link SharingExperiment.Steps#ready}) pass; the workers are released together and run while
 * {@link #running()} for the duration; they stop; after the steps say every node's workers stopped
 * ({@link SharingExperiment.Steps#workersStopped}) the trustees, which serve while {@link #serving()}, stop too. The
 * first throwable of any thread stops the run and is reported.
 */
final class WorkerPhases {
    private final String what;
    private final Duration startBound;
    private final Duration stopBound;
    private final CountDownLatch ready;
    private final CyclicBarrier start;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicBoolean trusteesStop = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Thread> workers = new ArrayList<>();
    private final List<Thread> trustees = new ArrayList<>();
    private final List<CompletableFuture<Long>> trusteePtrs = new ArrayList<>();
    private int firstTrustee;

    /** A trustee's thread body: serves {@code node}'s objects, completing {@code ptr} with its pointer once it serves. */
    @FunctionalInterface
    interface TrusteeBody {
        void serve(int node, CompletableFuture<Long> ptr);
    }

    /**
     * @param what         the experiment, for messages, e.g. {@code "sharing experiment"}
     * @param localWorkers the workers this process starts
     * @param startBound   how long the workers may take to arrive
     * @param stopBound    how long the threads may take to stop once told to
     */
    WorkerPhases(String what, int localWorkers, Duration startBound, Duration stopBound) {
        this.what = what;
        this.startBound = startBound;
        this.stopBound = stopBound;
        this.ready = new CountDownLatch(localWorkers);
        this.start = new CyclicBarrier(localWorkers + 1);
    }

    /** Starts a worker's thread. */
    void startWorker(Runnable body, String name) {
        workers.add(thread(body, name));
    }

    /**
     * Starts one trustee thread for each node {@code from..to} of this process and hands each trustee's pointer,
     * once it serves, to {@link SharingExperiment.Steps#trusteeStarted}. When one does not start within the start
     * bound, or the step fails, tells every thread started so far to stop and throws.
     *
     * @param name the threads' name, before {@code @node<id>}
     * @throws RemusException naming the trustee that did not start
     */
    void startTrustees(int from, int to, String name, TrusteeBody body, SharingExperiment.Steps steps) {
        firstTrustee = from;
        for (int node = from; node <= to; node++) {
            CompletableFuture<Long> ptr = new CompletableFuture<>();
            trusteePtrs.add(ptr);
            int n = node;
            trustees.add(thread(() -> body.serve(n, ptr), name + "@node" + node));
        }
        try {
            for (int node = from; node <= to; node++) {
                steps.trusteeStarted(node, localTrustee(node));
            }
        } catch (RuntimeException e) {
            abandon();
            throw e;
        }
    }

    /**
     * The pointer of {@code node}'s trustee for a worker: this process's own, or through
     * {@link SharingExperiment.Steps#remoteTrustee} for a node of another process.
     */
    long trustee(ComputeThread ct, int node, SharingExperiment.Steps steps) {
        int i = node - firstTrustee;
        return i >= 0 && i < trusteePtrs.size() ? localTrustee(node) : steps.remoteTrustee(ct, node);
    }

    private long localTrustee(int node) {
        try {
            return trusteePtrs.get(node - firstTrustee).get(startBound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemusException("interrupted while waiting for the trustee of node " + node, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new RemusException("the trustee of node " + node + " did not start within " + startBound, e);
        }
    }

    /**
     * A worker whose handles are open: waits until every local worker is and the run starts.
     *
     * @throws TimeoutException       when the others did not arrive within the start bound
     * @throws BrokenBarrierException when the run stopped before it started
     */
    void arrive() throws InterruptedException, BrokenBarrierException, TimeoutException {
        ready.countDown();
        start.await(startBound.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** {@return whether a worker should go on} */
    boolean running() {
        return !stop.get();
    }

    /** {@return whether a trustee should go on serving} */
    boolean serving() {
        return !trusteesStop.get();
    }

    /** {@return the first throwable of any thread, or null} */
    Throwable failure() {
        return failure.get();
    }

    /** Tells every thread started so far to stop, without waiting: the run will not happen. */
    void abandon() {
        stop.set(true);
        trusteesStop.set(true);
        start.reset();
    }

    /**
     * Runs the phases once every thread was started.
     *
     * @param duration          how long the workers run
     * @param steps             the steps across processes
     * @param trusteesWaitForAll whether the trustees serve until {@link SharingExperiment.Steps#workersStopped} returns
     * @return when the workers were released, as {@link System#nanoTime()}
     * @throws RemusException naming the first failure, or the steps' own exception when a step across processes failed
     */
    long run(Duration duration, SharingExperiment.Steps steps, boolean trusteesWaitForAll) throws InterruptedException {
        long begin;
        RuntimeException acrossNodes = null;
        try {
            long readyBy = System.nanoTime() + startBound.toNanos();
            while (!ready.await(10, TimeUnit.MILLISECONDS)) {
                if (failure.get() != null || System.nanoTime() - readyBy > 0) {
                    throw new RemoteTimeoutException("not ready within " + startBound);
                }
            }
            try {
                steps.ready();
            } catch (RuntimeException e) {
                acrossNodes = e;
                throw e;
            }
            begin = System.nanoTime();
            start.await(startBound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RuntimeException | BrokenBarrierException | TimeoutException e) {
            stop.set(true);
            trusteesStop.set(true);
            start.reset();
            List<Thread> all = new ArrayList<>(workers);
            all.addAll(trustees);
            if (acrossNodes != null) {
                // Another node's failure or a timeout across nodes: the local workers' broken start follows from it.
                BenchWorkers.joinAll(all, stopBound, new AtomicReference<>(), "a " + what);
                throw acrossNodes;
            }
            BenchWorkers.joinAll(all, stopBound, failure, "a " + what);
            throw new RemusException(what + " workers were not all ready within " + startBound,
                    failure.get() != null ? failure.get() : e);
        }
        long end = begin + duration.toNanos();
        while (failure.get() == null && end - System.nanoTime() > 0) {
            Thread.sleep(Math.max(1, Math.min(10, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
        }
        stop.set(true);
        try {
            BenchWorkers.joinAll(workers, stopBound, failure, "a " + what);
            if (trusteesWaitForAll) {
                steps.workersStopped();
            }
        } finally {
            trusteesStop.set(true);
            BenchWorkers.joinAll(trustees, stopBound, failure, "a " + what);
        }
        return begin;
    }

    private Thread thread(Runnable body, String name) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                stop.set(true);
                start.reset();
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
