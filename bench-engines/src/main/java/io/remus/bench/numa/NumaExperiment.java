package io.remus.bench.numa;

import io.remus.bench.perftest.BenchFailedException;
import io.remus.bench.perftest.BenchTimeoutException;
import io.remus.bench.stats.LatencyHistograms;
import io.remus.bench.stats.LatencySummary;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.WorkRequests;
import org.HdrHistogram.Histogram;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Memory bound to one NUMA node, the measuring thread pinned to another, for every pair of nodes:
 * a dependent pointer chase and a sequential read by the CPU ({@link MemoryProbe}), and, on a
 * fabric, RDMA READs of that memory (registered as it is) through node 0's loopback QP: the
 * question of where an RDMA buffer should live relative to the NIC and the thread. Memory is
 * bound with {@code mbind} and its placement read back with {@code move_pages}
 * ({@link BoundMemory}); the thread is pinned with {@code sched_setaffinity} ({@link CpuPinning}).
 * Each placement runs on a fresh platform thread, after short unmeasured passes that get the probes
 * compiled (JIT warm-up).
 */
public final class NumaExperiment {
    private static final int RESULT_BYTES = 1 << 16;
    private static final int WARM_ROUNDS = 5;
    private static final long WARM_STEPS = 100_000;
    private static final long WARM_BYTES = 1 << 20;

    private final long bytes;
    private final long chaseSteps;
    private final int rdmaIterations;
    private final int rdmaBytes;
    private final Duration timeout;

    /**
     * @param bytes          memory bound per node
     * @param chaseSteps     dependent loads per measurement
     * @param rdmaIterations RDMA READs per measurement
     * @param rdmaBytes      bytes per RDMA READ, 1..65536
     * @param timeout        the longest wait for one RDMA completion or one placement
     */
    public NumaExperiment(long bytes, long chaseSteps, int rdmaIterations, int rdmaBytes, Duration timeout) {
        if (bytes < 2L * MemoryProbe.LINE || chaseSteps < 1 || rdmaIterations < 1 || rdmaBytes < 1
                || rdmaBytes > RESULT_BYTES || rdmaBytes > bytes) {
            throw new BadArgumentException("NUMA experiment: bytes >= 128, steps and RDMA iterations positive, "
                    + "RDMA READ size 1..65536 and at most the bound memory");
        }
        this.bytes = bytes;
        this.chaseSteps = chaseSteps;
        this.rdmaIterations = rdmaIterations;
        this.rdmaBytes = rdmaBytes;
        this.timeout = timeout;
    }

    /**
     * Runs every placement: each node with CPUs against each node with memory.
     *
     * @param topology this machine's nodes
     * @param fabric   where the RDMA READs go (node 0 is opened and closed here), or null for CPU only
     * @return one row per placement, by CPU node then memory node
     */
    public List<NumaRow> run(NumaTopology topology, Fabric fabric) {
        List<NumaRow> rows = new ArrayList<>();
        FabricNode node = fabric == null ? null : fabric.open(0);
        try {
            CompletionQueue cq = node == null ? null : node.createCompletionQueue(4);
            QueuePair loopback = node == null ? null : node.connect(0, cq, 2, timeout);
            RegisteredMemory result = node == null ? null : node.allocate(RESULT_BYTES);
            List<NumaNode> cpuNodes = topology.nodes().stream().filter(n -> !n.cpus().isEmpty()).toList();
            for (NumaNode memoryNode : topology.nodes()) {
                if (!memoryNode.hasMemory()) {
                    continue;
                }
                try (BoundMemory memory = BoundMemory.allocate(bytes, memoryNode.id(), topology)) {
                    MemoryProbe.linkCycle(memory.segment(), memoryNode.id() + 1L);
                    long[] pages = memory.pagesOnNode(topology.maxNodeId() + 1);
                    long total = 0;
                    for (long p : pages) {
                        total += p;
                    }
                    double onNode = total == 0 ? 0 : (double) pages[memoryNode.id()] / total;
                    RegisteredMemory target = node == null ? null : node.register(memory.segment());
                    try {
                        for (NumaNode cpuNode : cpuNodes) {
                            rows.add(placement(topology, cpuNode.id(), memory, onNode, loopback, cq, result, target));
                        }
                    } finally {
                        if (target != null) {
                            target.close();
                        }
                    }
                }
            }
        } finally {
            if (node != null) {
                node.close();
            }
        }
        return rows;
    }

    private NumaRow placement(NumaTopology topology, int cpuNode, BoundMemory memory, double onNode,
                              QueuePair qp, CompletionQueue cq, RegisteredMemory result, RegisteredMemory target) {
        AtomicReference<NumaRow> row = new AtomicReference<>();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().name("remus-numa-cpu" + cpuNode + "-mem" + memory.node()).unstarted(() -> {
            try {
                CpuPinning.pinTo(cpuNode, topology);
                int cpu = CpuPinning.currentCpu();
                warmUp(memory);
                double chase = MemoryProbe.chaseNanos(memory.segment(), chaseSteps);
                double seq = MemoryProbe.sequentialGigabytesPerSecond(memory.segment(), 4 * memory.segment().byteSize());
                LatencySummary rdma = null;
                if (qp != null) {
                    reads(qp, cq, result, target);
                    rdma = reads(qp, cq, result, target);
                }
                row.set(new NumaRow(cpuNode, cpu, memory.node(), onNode, chase, seq, rdma));
            } catch (RuntimeException e) {
                failure.set(e);
            }
        });
        t.start();
        try {
            if (!t.join(timeout.multipliedBy(10))) {
                throw new BenchTimeoutException("placement cpu node " + cpuNode + ", memory node " + memory.node()
                        + " did not finish within " + timeout.multipliedBy(10).toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailedException("interrupted while measuring a NUMA placement");
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        return row.get();
    }

    private void warmUp(BoundMemory memory) {
        MemorySegment small = memory.segment().asSlice(0, Math.min(memory.segment().byteSize(), WARM_BYTES));
        for (int i = 0; i < WARM_ROUNDS; i++) {
            MemoryProbe.chaseNanos(memory.segment(), Math.min(chaseSteps, WARM_STEPS));
            MemoryProbe.sequentialGigabytesPerSecond(small, WARM_BYTES);
        }
    }

    private LatencySummary reads(QueuePair qp, CompletionQueue cq, RegisteredMemory result, RegisteredMemory target) {
        WorkRequests wr = new WorkRequests(1);
        Completions done = new Completions(4);
        Histogram h = LatencyHistograms.create();
        long span = Math.max(1, (target.length() - rdmaBytes) / MemoryProbe.LINE);
        long timeoutNanos = timeout.toNanos();
        for (int i = 0; i < rdmaIterations; i++) {
            long offset = (i * 7919L % span) * MemoryProbe.LINE;
            wr.clear();
            wr.addRead(i, result.address(), rdmaBytes, result.lkey(), target.address() + offset, target.rkey(),
                    WorkRequests.SIGNALED);
            long t0 = System.nanoTime();
            qp.post(wr);
            int n;
            while ((n = cq.poll(done)) == 0) {
                if (System.nanoTime() - t0 > timeoutNanos) {
                    throw new BenchTimeoutException("no completion of an RDMA READ within " + timeout.toMillis() + " ms");
                }
            }
            LatencyHistograms.record(h, System.nanoTime() - t0);
            for (int k = 0; k < n; k++) {
                if (done.status(k) != CompletionStatus.SUCCESS) {
                    throw new BenchFailedException("RDMA READ completed with " + done.status(k));
                }
            }
        }
        return LatencySummary.of(h);
    }
}
