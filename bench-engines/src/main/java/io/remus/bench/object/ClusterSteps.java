package io.remus.bench.object;

import io.remus.bench.engines.ClusterRounds;
import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteBlob;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ObjIntConsumer;
import java.util.function.Supplier;

/**
 * The steps of a run across processes, one node each ({@link ClusterSharingExperiment}, {@link ClusterKvExperiment}):
 * a trustee directory of one word per node on node 0, which a trustee fills by compare-and-swap and other nodes'
 * workers READ (polling with pauses that double from 0.5 ms to 10 ms, for a bound); the start through the round;
 * and, after the local workers stopped, the cluster barrier, so that no trustee stops serving while another
 * node's worker may still call it. Used by the thread that owns the cluster's compute thread, except
 * {@link #remoteTrustee}, which each worker calls on its own compute thread. Also the steps every such run takes:
 * node 0 {@link #publish}es the directory and the run's words and the others {@link #await} them, each node
 * {@link #runAndReport}s its part, and node 0 {@link #combine}s the results; and the encoding of what the rounds
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

    /**
     * What node 0 published for a run.
     *
     * @param round   the run's round
     * @param payload the run's words after the directory's pointer
     */
    record Published(ClusterRounds.Round round, long[] payload) {
    }

    /** This node's part of a run. */
    interface LocalRun<P> {
        /** {@return what this node's workers measured} */
        P run() throws InterruptedException;
    }

    /**
     * What this node measured and sent.
     *
     * @param partial    what its workers measured
     * @param attachment the caller's bytes sent with it
     */
    record Reported<P>(P partial, byte[] attachment) {
    }

    /**
     * Node 0's first step of a run: allocates the trustee directory on node 0, zeroed, and publishes its pointer and
     * then {@code payload} with the run's configuration words.
     *
     * @param rounds     the cluster's rounds
     * @param mainThread the cluster's compute thread
     * @param config     the run's configuration words
     * @param payload    the run's words (pointers) for the other nodes
     * @return the round and {@code payload}
     */
    Published publish(ClusterRounds rounds, ComputeThread mainThread, long[] config, long[] payload) {
        int n = rounds.size();
        long directory = mainThread.allocator().allocate(8L * n, 0);
        mainThread.write(directory, MemorySegment.ofArray(new long[n]));
        long[] all = new long[1 + payload.length];
        all[0] = directory;
        System.arraycopy(payload, 0, all, 1, payload.length);
        ClusterRounds.Round run = rounds.publish(config,
                RemoteBlob.write(mainThread, mainThread.allocator(), 0, toBytes(all)));
        words(directory);
        return new Published(run, payload);
    }

    /**
     * The other nodes' first step of a run: waits for node 0's {@link #publish} of the same configuration words and
     * reads the directory's pointer and the payload.
     *
     * @param rounds     the cluster's rounds
     * @param mainThread the cluster's compute thread
     * @param config     this node's configuration words
     * @param what       what node 0 publishes, for the timeout's message
     * @param describe   describes configuration words, for a mismatch's message
     * @return the round and the payload
     */
    Published await(ClusterRounds rounds, ComputeThread mainThread, long[] config, String what,
                    Function<long[], String> describe) {
        ClusterRounds.Round run = rounds.await(config, what, describe);
        long[] all = fromBytes(RemoteBlob.read(mainThread, run.payload()));
        words(all[0]);
        long[] payload = new long[all.length - 1];
        System.arraycopy(all, 1, payload, 0, payload.length);
        return new Published(run, payload);
    }

    /**
     * Runs this node's part of the run {@link #open}ed and sends node 0 its result: {@code encode} of what the
     * workers measured and the caller's attachment (asked for after they stopped). A failure before every node's
     * workers were ready fails the round; a later one is sent as this node's {@link #failure}; either is rethrown.
     *
     * @param self       this node's id
     * @param local      runs this node's workers
     * @param attachment the caller's bytes
     * @param encode     the result's bytes, starting with {@link #OK}
     * @return what this node measured and sent
     */
    <P> Reported<P> runAndReport(int self, LocalRun<P> local, Supplier<byte[]> attachment,
                                 BiFunction<P, byte[], byte[]> encode) throws InterruptedException {
        P partial;
        try {
            partial = local.run();
        } catch (RuntimeException e) {
            if (!passedReady) {
                round.markFailed();
            } else {
                round.publishResult(failure(self, e));
            }
            throw e;
        }
        byte[] extra = attachment.get();
        round.publishResult(encode.apply(partial, extra));
        return new Reported<>(partial, extra);
    }

    /**
     * Node 0's last step: reads every node's result, in node order. {@code add} reads the counts of each
     * {@link #OK} result (given the node id) up to the attachment that ends it.
     *
     * @param blobs every node's result
     * @param add   reads one node's counts
     * @param what  names the run, for the failure's message
     * @return every node's attachment by node id, empty for a node that failed
     * @throws RemusException naming the run and every node's failure, when a node failed
     */
    static List<byte[]> combine(List<byte[]> blobs, ObjIntConsumer<ByteBuffer> add, Supplier<String> what) {
        List<byte[]> attachments = new ArrayList<>();
        StringBuilder failures = new StringBuilder();
        for (int node = 0; node < blobs.size(); node++) {
            ByteBuffer b = ByteBuffer.wrap(blobs.get(node)).order(ByteOrder.nativeOrder());
            if (!ok(b, failures)) {
                attachments.add(new byte[0]);
                continue;
            }
            add.accept(b, node);
            byte[] extra = new byte[b.getInt()];
            b.get(extra);
            attachments.add(extra);
        }
        if (!failures.isEmpty()) {
            throw new RemusException(what.get() + " failed: " + failures);
        }
        return attachments;
    }

    /** Puts the count of posted operation kinds, then each kind's count. */
    static void putPosted(ByteBuffer b, long[] posted) {
        b.putInt(posted.length);
        for (long v : posted) {
            b.putLong(v);
        }
    }

    /** Reads what {@link #putPosted} put, adding each kind's count into {@code sum}. */
    static void addPosted(ByteBuffer b, long[] sum) {
        int kinds = b.getInt();
        for (int k = 0; k < kinds; k++) {
            sum[k] += b.getLong();
        }
    }

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
        long deadline = ThreadTime.nanoTime() + bound.toNanos();
        long pause = TimeUnit.MICROSECONDS.toNanos(500);
        while (true) {
            long ptr = ct.read(slot(node));
            if (ptr != 0) {
                return ptr;
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("the trustee of node " + node + " did not start within " + bound);
            }
            ThreadTime.parkNanos(this, pause);
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
