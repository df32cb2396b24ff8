package io.remus.core.verbs;

import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.DoorbellBatch;
import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemusException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.testing.ClusterProcess;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * One node's part of the multi-node scenario that the multi-process and cluster tests run: every
 * node is a memory and compute node with its own verbs fabric (its own device context); the nodes
 * bootstrap over rdma_cm (or the TCP fallback) from the configuration's node list, meet at a
 * barrier, do their share of fetch-and-adds on a counter on node 0,
 * compare-and-swap increments on a word on node 1 and writes of their own slot on the last node,
 * check that a fenced WRITE sends what the READ before it fetched, meet again, node 0 reports the totals, and every node announces its shutdown and waits for all
 * announcements before it frees its memory.
 */
final class MultiNodeScenario {
    /** Counter word offset in segment 1 of node 0. */
    static final long COUNTER = 4096;
    /** CAS word offset in segment 1 of node 1. */
    static final long CAS_WORD = 4096 + 64;
    /** Offset in segment 1 of node 0 of the count of survivors done with the killed-peer part. */
    static final long DONE = 4096 + 128;
    /** First slot offset in segment 1 of the last node. */
    static final long SLOTS = 8192;
    /** First fence-check word offset in segment 1 of every node (32 bytes per writer). */
    static final long FENCE_WORDS = 16384;
    private static final int FENCE_ROUNDS = 20;

    private MultiNodeScenario() {
    }

    static VerbsFabricOptions options(String device, ClusterConfig config, Duration connectTimeout, BootstrapKind kind) {
        return VerbsFabricOptions.cluster(device, config, connectTimeout).withBootstrap(kind);
    }

    /**
     * Runs this node's part.
     *
     * @return the line node 0 reports ({@code TOTALS faa=.. cas=.. slots=..}), or {@code DONE}
     */
    static String run(VerbsFabricOptions options, ClusterConfig config, int opsPerNode, Duration connectTimeout)
            throws Exception {
        return run(RemusCluster.builder().config(config).verbsOptions(options).joinTimeout(connectTimeout), config, opsPerNode,
                connectTimeout);
    }

    /**
     * Runs this node's part, joining with {@code builder} (on any fabric).
     *
     * @return the line node 0 reports ({@code TOTALS faa=.. cas=.. slots=..}), or {@code DONE}
     */
    static String run(RemusCluster.Builder builder, ClusterConfig config, int opsPerNode, Duration connectTimeout)
            throws Exception {
        int nodeId = config.nodeId();
        int size = config.nodes().size();
        return ClusterProcess.run(builder, (node, t) -> {
            ClusterBarrier barrier = new ClusterBarrier(t, t.config().totalComputeThreads(), connectTimeout);
            barrier.await();
            long counter = RemotePtr.offset(t.segmentBase(0, 1), COUNTER);
            long casWord = RemotePtr.offset(t.segmentBase(Math.min(1, size - 1), 1), CAS_WORD);
            long slot = RemotePtr.offset(t.segmentBase(size - 1, 1), SLOTS + 8L * nodeId);
            for (int k = 0; k < opsPerNode; k++) {
                t.fetchAndAdd(counter, 1);
                long seen = t.read(casWord);
                while (t.compareAndSwap(casWord, seen, seen + 1) != seen) {
                    seen = t.read(casWord);
                }
                t.write(slot, k + 1);
            }
            checkFencedWrites(t, nodeId, size);
            barrier.await();
            if (nodeId != 0) {
                return "DONE";
            }
            long slots = 0;
            for (int i = 0; i < size; i++) {
                slots += t.read(RemotePtr.offset(t.segmentBase(size - 1, 1), SLOTS + 8L * i));
            }
            return "TOTALS faa=" + t.read(counter) + " cas=" + t.read(casWord) + " slots=" + slots;
        });
    }

    /**
     * READs a word of the next node into the buffer and WRITEs the buffer to the word beside it,
     * once with the WRITE fenced (it must send what the READ fetched) and once not (counted, not
     * asserted: across hosts the unfenced WRITE may go out before the READ's data came back).
     *
     * @throws IllegalStateException when a fenced WRITE sent anything but what the READ fetched
     */
    private static void checkFencedWrites(ComputeThread t, int nodeId, int size) {
        long word = RemotePtr.offset(t.segmentBase((nodeId + 1) % size, 1), FENCE_WORDS + 32L * nodeId);
        long copy = RemotePtr.offset(word, 8);
        MemorySegment buf = t.buffer();
        int unfencedStale = 0;
        for (int k = 1; k <= FENCE_ROUNDS; k++) {
            for (boolean fenced : new boolean[]{true, false}) {
                long value = (fenced ? 1L << 40 : 1L << 41) + k;
                t.write(word, value);
                buf.set(ValueLayout.JAVA_LONG, 0, -1L);
                DoorbellBatch b = t.batch().read(word, 0, 8);
                (fenced ? b.fence() : b).write(copy, 0, 8).execute();
                long sent = t.read(copy);
                if (fenced && sent != value) {
                    throw new IllegalStateException("node " + nodeId + ": a fenced WRITE sent " + sent
                            + " instead of the " + value + " the READ before it fetched");
                }
                unfencedStale += !fenced && sent != value ? 1 : 0;
            }
        }
        System.out.println("FENCE node " + nodeId + ": fenced WRITEs all sent what the READ fetched; unfenced sent stale data "
                + unfencedStale + " of " + FENCE_ROUNDS + " times");
    }

    /** Operations each survivor tries on the dead node after its first failure. */
    static final int AFTER_DEATH = 5;

    /**
     * The killed-peer part: every node runs fetch-and-adds on the counter of node 0 and of the last
     * node; the last node halts abruptly (no cleanup, like a crash) after {@code opsBeforeDeath}. After its
     * first failed operation, a survivor goes on {@value #AFTER_DEATH} times with one fetch-and-add on node 0
     * (alive: it must succeed) and one on the dead node (it must fail with {@link PeerUnreachableException},
     * each without waiting out the connect timeout: its queue pair's reconnect makes one attempt, then backs off).
     *
     * Each survivor then adds one to {@link #DONE} on node 0, and node 0 waits (up to 5 minutes) until every
     * survivor has, so that its memory outlives their operations on it: the shutdown handshake would wait for the
     * dead node too and give up after its timeout, which a survivor's operations on the dead node can outlast in an
     * emulated guest.
     *
     * @return for survivors, {@code TYPED <exception class>: <message> THEN <n> OF <AFTER_DEATH> UNREACHABLE}
     *         once an operation on the dead node failed
     */
    static String runUntilPeerDies(RemusCluster.Builder builder, ClusterConfig config, int opsBeforeDeath,
                                   Duration connectTimeout) {
        int nodeId = config.nodeId();
        int size = config.nodes().size();
        RemusCluster cluster = builder.shutdownTimeout(Duration.ofSeconds(30)).join();
        try {
            ComputeThread t = cluster.computeThread();
            new ClusterBarrier(t, t.config().totalComputeThreads(), connectTimeout).await();
            long first = RemotePtr.offset(t.segmentBase(0, 1), COUNTER);
            long last = RemotePtr.offset(t.segmentBase(size - 1, 1), COUNTER);
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            for (int k = 0; System.nanoTime() - deadline < 0; k++) {
                if (nodeId == size - 1 && k == opsBeforeDeath) {
                    System.out.println("HALTING");
                    System.out.flush();
                    Runtime.getRuntime().halt(137);
                }
                try {
                    t.fetchAndAdd(first, 1);
                    t.fetchAndAdd(last, 1);
                } catch (RemusException e) {
                    int unreachable = 0;
                    for (int i = 0; i < AFTER_DEATH; i++) {
                        t.fetchAndAdd(first, 1);
                        try {
                            t.fetchAndAdd(last, 1);
                        } catch (PeerUnreachableException u) {
                            unreachable++;
                        }
                    }
                    String result = "TYPED " + e.getClass().getSimpleName() + ": " + e.getMessage() + " THEN "
                            + unreachable + " OF " + AFTER_DEATH + " UNREACHABLE";
                    awaitSurvivors(t, size - 1);
                    return result;
                }
            }
            return "NO ERROR";
        } finally {
            try {
                cluster.close();
            } catch (RemusException e) {
                System.out.println("CLOSE " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
    }

    /** Counts this survivor done on node 0; node 0 then waits until {@code survivors} have counted themselves. */
    private static void awaitSurvivors(ComputeThread t, int survivors) {
        long done = RemotePtr.offset(t.segmentBase(0, 1), DONE);
        t.fetchAndAdd(done, 1);
        if (t.nodeId() != 0) {
            return;
        }
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (t.fetchAndAdd(done, 0) < survivors && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(10_000_000L);
        }
    }
}
