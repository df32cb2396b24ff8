package io.remus.bench.loopback;

import io.remus.bench.perftest.BenchFailedException;
import io.remus.bench.perftest.BenchTimeoutException;
import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.Opcode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;
import org.HdrHistogram.Histogram;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The same 8-byte READ, WRITE and compare-and-swap done three ways from node 0: as a CPU access to
 * its own memory, through its loopback QP to its own memory, and to node 1's memory. This is the
 * cost that ALock's local path avoids (Baran et al., SPAA 2024): on real RDMA the loopback QP costs
 * a trip through the NIC; on the simulator it shows the Java data path's cost only. Each
 * measurement runs twice and the first run (JIT warm-up) is discarded.
 */
public final class LoopbackExperiment {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final Opcode[] OPERATIONS = {Opcode.READ, Opcode.WRITE, Opcode.COMPARE_AND_SWAP};
    private static final int WORD = 0;
    private static final int RESULT = 64;

    private final long iterations;
    private final int depth;
    private final long timeoutNanos;

    /**
     * @param iterations   operations per measurement, positive
     * @param depth        RDMA operations in flight in the throughput measurement, positive
     * @param timeoutNanos the longest wait for one completion
     */
    public LoopbackExperiment(long iterations, int depth, long timeoutNanos) {
        this.iterations = iterations;
        this.depth = depth;
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * Runs every operation on every path.
     *
     * @param fabric a fabric on which nodes 0 and 1 are free; this method opens and closes them
     * @return one row per operation and path
     */
    public List<LoopbackRow> run(Fabric fabric) {
        List<LoopbackRow> rows = new ArrayList<>();
        try (FabricNode self = fabric.open(0); FabricNode other = fabric.open(1)) {
            RegisteredMemory mine = self.allocate(4096);
            RegisteredMemory theirs = other.allocate(4096);
            self.publish(mine);
            other.publish(theirs);
            CompletionQueue cq = self.createCompletionQueue(depth);
            Duration timeout = Duration.ofNanos(timeoutNanos);
            QueuePair loopback = self.connect(0, cq, depth, timeout);
            QueuePair remote = self.connect(1, cq, depth, timeout);
            RemoteRegion own = fabric.publishedRegions(0).getFirst();
            RemoteRegion peer = fabric.publishedRegions(1).getFirst();
            for (Opcode op : OPERATIONS) {
                cpu(op, mine.segment());
                rdma(op, AccessPath.LOOPBACK_QP, loopback, cq, mine, own);
                rdma(op, AccessPath.REMOTE_NODE, remote, cq, mine, peer);
                rows.add(cpu(op, mine.segment()));
                rows.add(rdma(op, AccessPath.LOOPBACK_QP, loopback, cq, mine, own));
                rows.add(rdma(op, AccessPath.REMOTE_NODE, remote, cq, mine, peer));
            }
        }
        return rows;
    }

    private LoopbackRow cpu(Opcode op, MemorySegment memory) {
        Histogram h = LatencyHistograms.create();
        long sink = 0;
        for (long i = 0; i < iterations; i++) {
            long t0 = System.nanoTime();
            sink += cpuAccess(op, memory, i);
            LatencyHistograms.record(h, System.nanoTime() - t0);
        }
        long t0 = System.nanoTime();
        for (long i = 0; i < iterations; i++) {
            sink += cpuAccess(op, memory, i);
        }
        long nanos = Math.max(1, System.nanoTime() - t0);
        LONG.setVolatile(memory, (long) RESULT, sink);
        return new LoopbackRow(op, AccessPath.LOCAL_CPU, LatencySummary.of(h), iterations * 1e9 / nanos);
    }

    private static long cpuAccess(Opcode op, MemorySegment memory, long i) {
        return switch (op) {
            case READ -> (long) LONG.getVolatile(memory, (long) WORD);
            case WRITE -> {
                LONG.setVolatile(memory, (long) WORD, i);
                yield 0;
            }
            default -> LONG.compareAndSet(memory, (long) WORD, i, i + 1) ? 1 : 0;
        };
    }

    private LoopbackRow rdma(Opcode op, AccessPath path, QueuePair qp, CompletionQueue cq, RegisteredMemory local,
                             RemoteRegion target) {
        WorkRequests wr = new WorkRequests(1);
        Completions done = new Completions(depth);
        Histogram h = LatencyHistograms.create();
        for (long i = 0; i < iterations; i++) {
            long t0 = System.nanoTime();
            post(op, qp, wr, local, target, i);
            long t1 = await(cq, done, t0);
            LatencyHistograms.record(h, t1 - t0);
        }
        long t0 = System.nanoTime();
        long posted = 0;
        long completed = 0;
        while (completed < iterations) {
            while (posted - completed < depth && posted < iterations) {
                post(op, qp, wr, local, target, posted++);
            }
            long t = System.nanoTime();
            int n = 0;
            while (n == 0) {
                n = poll(cq, done);
                if (n == 0 && System.nanoTime() - t > timeoutNanos) {
                    throw new BenchTimeoutException("no completion of " + op + " on the " + path.words() + " path");
                }
            }
            completed += n;
        }
        long nanos = Math.max(1, System.nanoTime() - t0);
        return new LoopbackRow(op, path, LatencySummary.of(h), iterations * 1e9 / nanos);
    }

    private static void post(Opcode op, QueuePair qp, WorkRequests wr, RegisteredMemory local, RemoteRegion target,
                             long i) {
        wr.clear();
        long result = local.address() + RESULT;
        long word = target.address() + WORD;
        switch (op) {
            case READ -> wr.addRead(i, result, 8, local.lkey(), word, target.rkey(), WorkRequests.SIGNALED);
            case WRITE -> wr.addWrite(i, result, 8, local.lkey(), word, target.rkey(), WorkRequests.SIGNALED);
            default -> wr.addCompareAndSwap(i, result, local.lkey(), word, target.rkey(), i, i + 1,
                    WorkRequests.SIGNALED);
        }
        qp.post(wr);
    }

    private long await(CompletionQueue cq, Completions done, long since) {
        while (poll(cq, done) == 0) {
            if (System.nanoTime() - since > timeoutNanos) {
                throw new BenchTimeoutException("no completion within " + timeoutNanos / 1_000_000 + " ms");
            }
        }
        return System.nanoTime();
    }

    private static int poll(CompletionQueue cq, Completions done) {
        int n = cq.poll(done);
        for (int i = 0; i < n; i++) {
            if (done.status(i) != CompletionStatus.SUCCESS) {
                throw new BenchFailedException(done.opcode(i) + " completed with " + done.status(i));
            }
        }
        return n;
    }
}
