package io.remus.bench.object;

import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.RemoteTimeoutException;
import io.remus.core.RemusException;
import io.remus.core.memory.ClusterBarrier;
import io.remus.core.memory.ClusterRounds;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The steps of a run across processes, one node each ({@link ClusterSharingExperiment}, {@link ClusterKvExperiment}):
 * a trustee directory of one word per node on node 0, which a trustee fills by compare-and-swap and other nodes'
 * workers READ (polling with pauses that double from 0.5 ms to 10 ms, for a bound); the start through the round;
 * and, after the local workers stopped, the cluster barrier, so that no trustee stops serving while another
 * node's worker may still call it. Used by the thread that owns the cluster's compute thread, except
 * {@link #remoteTrustee}, which each worker calls on its own compute thread. Also the encoding of what the rounds
 * carry: word arrays, and a node's result that starts with {@link #OK} or is a {@link #failure}.
 */
final class ClusterSteps implements SharingExperiment.Steps {
    /** A result's first int: the node's workers ran and its counts follow. */
    static final int OK = 0;
    /** A result's first int: the node failed; the length and UTF-8 text of its failure follow. */
    static final int FAILED = 1;

    private long words;
    private ComputeThread main;
    private ClusterRounds.Round round;
    private Supplier<ClusterBarrier> barrier;
    private Duration bound;
    private volatile boolean passedReady;

    /** @param directory the directory's first word, {@code 8 * nodes} bytes on node 0 */
    void words(long directory) {
        this.words = directory;
    }

    /**
     * @param mainThread the cluster's compute thread
     * @param run        the run's round
     * @param barriers   the cluster barrier
     * @param wait       how long a worker waits for another node's trustee
     */
    void open(ComputeThread mainThread, ClusterRounds.Round run, Supplier<ClusterBarrier> barriers, Duration wait) {
        this.main = mainThread;
        this.round = run;
        this.barrier = barriers;
        this.bound = wait;
    }

    /** {@return whether every node's workers were ready (so a failure is reported as a result, not a start)} */
    boolean passedReady() {
        return passedReady;
    }

    @Override
    public void trusteeStarted(int node, long ptr) {
        long was = main.compareAndSwap(slot(node), 0, ptr);
        if (was != 0) {
            throw new RemusException("the trustee directory word of node " + node + " already holds " + RemotePtr.toString(was));
        }
    }

    @Override
    public long remoteTrustee(ComputeThread ct, int node) {
        long deadline = System.nanoTime() + bound.toNanos();
        long pause = TimeUnit.MICROSECONDS.toNanos(500);
        while (true) {
            long ptr = ct.read(slot(node));
            if (ptr != 0) {
                return ptr;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("the trustee of node " + node + " did not start within " + bound);
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(TimeUnit.MILLISECONDS.toNanos(10), 2 * pause);
        }
    }

    @Override
    public void ready() {
        round.ready(SharingExperiment.START_BOUND);
        passedReady = true;
    }

    @Override
    public void workersStopped() {
        barrier.get().await();
    }

    private long slot(int node) {
        return RemotePtr.offset(words, 8L * node);
    }

    /** {@return a node's failed result: {@link #FAILED}, then the failure's text, naming the node} */
    static byte[] failure(int node, RuntimeException e) {
        byte[] text = ("node " + node + ": " + e).getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + text.length).order(ByteOrder.nativeOrder()).putInt(FAILED).putInt(text.length)
                .put(text).array();
    }

    /**
     * Reads a result's first int and, for a failed one, appends its text to {@code failures}.
     *
     * @return whether the result is {@link #OK} (its counts follow in {@code b})
     */
    static boolean ok(ByteBuffer b, StringBuilder failures) {
        if (b.getInt() == OK) {
            return true;
        }
        byte[] text = new byte[b.getInt()];
        b.get(text);
        failures.append(failures.isEmpty() ? "" : "; ").append(new String(text, StandardCharsets.UTF_8));
        return false;
    }

    static byte[] toBytes(long[] words) {
        ByteBuffer b = ByteBuffer.allocate(8 * words.length).order(ByteOrder.nativeOrder());
        b.asLongBuffer().put(words);
        return b.array();
    }

    static long[] fromBytes(byte[] bytes) {
        long[] words = new long[bytes.length / 8];
        ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).asLongBuffer().get(words);
        return words;
    }
}
