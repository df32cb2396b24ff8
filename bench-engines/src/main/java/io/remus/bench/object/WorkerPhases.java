package io.remus.bench.object;

import io.remus.bench.engines.BenchWorkers;
import io.remus.core.ComputeThread;
import io.remus.core.error.RemusException;
import io.remus.core.time.ThreadTime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The phases of one experiment run ({@link SharingExperiment}, {@link KvExperiment}) in one process: its worker and
 * trustee threads start; every local worker opens its handles and {@link #arrive arrives}; the steps across
 * processes ({@link SharingExperiment.Steps#ready}) pass; the workers are released together and run while
 * {@link #running()} for the duration; they stop; after the steps say every node's workers stopped
 * ({@link SharingExperiment.Steps#workersStopped}) the trustees, which serve while {@link #serving()}, stop too. The
 * first throwable of any thread stops the run and is reported.
 *
 * <p>Every clock reading, wait, thread start and join goes through {@link ThreadTime}: on host threads these are
 * the JDK's, and phases run on the simulator's virtual-time scheduler
 * ({@link io.remus.core.sim.VirtualTimeScheduler}) run their threads there, the duration and the bounds then
 * being virtual time. The gates are flags checked between parks of at most {@link #GATE_CHECK_NANOS}, which a
 * wake-up ends early; no thread blocks in the JDK.
 */
final class WorkerPhases {
    private final String what;
    private final Duration startBound;
    private final Duration stopBound;
    /** The longest park of a thread waiting at a gate between two checks. */
    private static final long GATE_CHECK_NANOS = 1_000_000;
    /** The longest park of the thread timing the run between two checks for a failure. */
    private static final long SLEEP_CHECK_NANOS = 10_000_000;

    private final int localWorkers;
    private final Thread starter;
    private final AtomicInteger ready = new AtomicInteger();
    private final AtomicBoolean go = new AtomicBoolean();
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
     * @param stopBound    how long the threads may take to stop once told to; the calling thread is the one that
     *                     calls {@link #run}
     */
    WorkerPhases(String what, int localWorkers, Duration startBound, Duration stopBound) {
        this.what = what;
        this.startBound = startBound;
        this.stopBound = stopBound;
        this.localWorkers = localWorkers;
        this.starter = Thread.currentThread();
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
        CompletableFuture<Long> ptr = trusteePtrs.get(node - firstTrustee);
        long deadline = ThreadTime.nanoTime() + startBound.toNanos();
        while (!ptr.isDone()) {
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new RemusException("the trustee of node " + node + " did not start within " + startBound);
            }
            ThreadTime.parkNanos(ptr, GATE_CHECK_NANOS);
        }
        try {
            return ptr.join();
        } catch (CompletionException e) {
            throw new RemusException("the trustee of node " + node + " did not start within " + startBound, e.getCause());
        }
    }

    /**
     * A worker whose handles are open: waits until every local worker is and the run starts.
     *
     * @throws TimeoutException       when the others did not arrive within the start bound
     * @throws BrokenBarrierException when the run stopped before it started
     */
    void arrive() throws InterruptedException, BrokenBarrierException, TimeoutException {
        ready.incrementAndGet();
        ThreadTime.unpark(starter);
        long deadline = ThreadTime.nanoTime() + startBound.toNanos();
        while (!go.get()) {
            if (stop.get()) {
                throw new BrokenBarrierException();
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new TimeoutException("the run did not start within " + startBound);
            }
            ThreadTime.parkNanos(go, GATE_CHECK_NANOS);
        }
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
    }

    /**
     * Runs the phases once every thread was started.
     *
     * @param duration          how long the workers run
     * @param steps             the steps across processes
     * @param trusteesWaitForAll whether the trustees serve until {@link SharingExperiment.Steps#workersStopped} returns
     * @return when the workers were released, as {@link ThreadTime#nanoTime()}
     * @throws RemusException naming the first failure, or the steps' own exception when a step across processes failed
     */
    long run(Duration duration, SharingExperiment.Steps steps, boolean trusteesWaitForAll) throws InterruptedException {
        long begin;
        RuntimeException acrossNodes = null;
        try {
            BenchWorkers.awaitReady(ready, localWorkers, startBound, failure, GATE_CHECK_NANOS);
            try {
                steps.ready();
            } catch (RuntimeException e) {
                acrossNodes = e;
                throw e;
            }
            begin = ThreadTime.nanoTime();
            go.set(true);
            for (Thread t : workers) {
                ThreadTime.unpark(t);
            }
        } catch (RuntimeException e) {
            stop.set(true);
            trusteesStop.set(true);
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
        for (long left = end - ThreadTime.nanoTime(); failure.get() == null && left > 0; left = end - ThreadTime.nanoTime()) {
            ThreadTime.parkNanos(stop, Math.min(SLEEP_CHECK_NANOS, left));
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
        Thread t = ThreadTime.newThread(name, () -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                stop.set(true);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }
}
