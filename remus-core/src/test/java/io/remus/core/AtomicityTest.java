package io.remus.core;

import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The local/remote atomicity table, observed: NIC atomics are atomic among themselves only. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AtomicityTest {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLoseUpdatesInSomeRunWhenCpuAtomicsRaceNicFetchAndAdd(Function<SimOptions, Fabric> make) throws Exception {
        SimOptions opts = SimOptions.defaults().withYieldInsideNicAtomics(true);
        int perSide = 2000;
        int runs = 20;
        try (TestCluster c = new TestCluster(make, opts, 2, b -> { })) {
            MemorySegment raw = c.node(1).memoryNode().orElseThrow().segments().get(1).segment();
            boolean lost = false;
            for (int run = 0; run < runs && !lost; run++) {
                WORD.setVolatile(raw, 4096L, 0L);
                CyclicBarrier start = new CyclicBarrier(2);
                c.runOnThreads(new int[] {0, 1}, (i, t) -> {
                    long w = RemotePtr.offset(t.segmentBase(1, 1), 4096);
                    start.await(10, TimeUnit.SECONDS);
                    for (int k = 0; k < perSide; k++) {
                        if (i == 0) {
                            t.fetchAndAdd(w, 1);
                        } else {
                            WORD.getAndAdd(raw, 4096L, 1L);
                            Thread.yield();
                        }
                    }
                });
                long total = (long) WORD.getVolatile(raw, 4096L);
                assertTrue(total <= 2L * perSide);
                lost = total < 2L * perSide;
            }
            assertTrue(lost, "a CPU atomic racing a NIC atomic on one word must be able to lose updates (IBV_ATOMIC_HCA)");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCountExactlyWhenThreadsOfSeveralNodesUseOnlyNicFetchAndAdd(Function<SimOptions, Fabric> make) throws Exception {
        SimOptions opts = SimOptions.defaults().withYieldInsideNicAtomics(true);
        int perThread = 500;
        int[] nodes = {0, 0, 1, 1, 2, 2};
        try (TestCluster c = new TestCluster(make, opts, 3, b -> b.threadsPerNode(2))) {
            c.runOnThreads(nodes, (i, t) -> {
                long w = RemotePtr.offset(t.segmentBase(1, 1), 4096);
                for (int k = 0; k < perThread; k++) {
                    if ((k & 1) == 0) {
                        t.fetchAndAdd(w, 1);
                    } else {
                        long seen = t.read(w);
                        while (t.compareAndSwap(w, seen, seen + 1) != seen) {
                            seen = t.read(w);
                        }
                    }
                }
            });
            MemorySegment raw = c.node(1).memoryNode().orElseThrow().segments().get(1).segment();
            assertEquals((long) nodes.length * perThread, (long) WORD.getVolatile(raw, 4096L));
        }
    }

    /**
     * An RDMA WRITE is not atomic with a NIC compare-and-swap on the same word even when the compare fails: a device
     * may apply it as a load and a store of what it loaded (Soft-RoCE does), and a WRITE landing in between is lost.
     * Why a word that RDMA atomics race on must change only by atomics (a spin lock's release, the root pointer).
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLoseSomeWriteWhenWritesRaceFailingNicCompareAndSwaps(Function<SimOptions, Fabric> make) throws Exception {
        SimOptions opts = SimOptions.defaults().withYieldInsideNicAtomics(true);
        int writes = 5_000;
        try (TestCluster c = new TestCluster(make, opts, 3, b -> { })) {
            MemorySegment raw = c.node(1).memoryNode().orElseThrow().segments().get(1).segment();
            WORD.setVolatile(raw, 4096L, 0L);
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong failed = new java.util.concurrent.atomic.AtomicLong();
            long[] lost = {-1};
            c.runOnThreads(new int[] {0, 2}, (i, t) -> {
                long w = RemotePtr.offset(t.segmentBase(1, 1), 4096);
                if (i == 0) {
                    try {
                        for (long k = 1; k <= writes && lost[0] < 0; k++) {
                            long before = failed.get();
                            t.write(w, k);
                            awaitTwoMore(failed, before); // the one in flight during the write, if any, has stored
                            if ((long) WORD.getVolatile(raw, 4096L) != k) {
                                lost[0] = k;
                            }
                        }
                    } finally {
                        done.set(true);
                    }
                } else {
                    while (!done.get()) {
                        t.compareAndSwap(w, -1, 7); // the word is never -1: every one fails
                        failed.incrementAndGet();
                    }
                }
            });
            assertTrue(lost[0] >= 0, "no RDMA WRITE of " + writes + " was lost to a racing failing compare-and-swap");
        }
    }

    /** Waits (at most 10 s) until {@code count} is two past {@code before}. */
    static void awaitTwoMore(java.util.concurrent.atomic.AtomicLong count, long before) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (count.get() < before + 2) {
            assertTrue(System.nanoTime() < deadline, "the racing thread stopped");
            Thread.onSpinWait();
        }
    }

    /**
     * How long the racing write of {@link #shouldTearInSomeReadWhenCpuReadsRaceALongNicWrite} is, in bytes (at most
     * half a thread's 8 KiB buffer). The simulator tears a write of any length (it yields while copying).
     */
    int tearingWriteLength() {
        return 64;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldTearInSomeReadWhenCpuReadsRaceALongNicWrite(Function<SimOptions, Fabric> make) throws Exception {
        SimOptions opts = SimOptions.defaults().withYieldWhileTearing(true);
        int length = tearingWriteLength();
        try (TestCluster c = new TestCluster(make, opts, 2, b -> { })) {
            MemorySegment raw = c.node(1).memoryNode().orElseThrow().segments().get(1).segment();
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicBoolean torn = new java.util.concurrent.atomic.AtomicBoolean();
            c.runOnThreads(new int[] {0, 1}, (i, t) -> {
                if (i == 0) {
                    long dst = RemotePtr.offset(t.segmentBase(1, 1), 8192);
                    t.buffer().asSlice(0, length).fill((byte) 1);
                    t.buffer().asSlice(length, length).fill((byte) 2);
                    for (int k = 0; k < 20_000 && !torn.get(); k++) {
                        t.write(dst, (k & 1) * (long) length, length);
                    }
                    done.set(true);
                } else {
                    while (!done.get() && !torn.get()) {
                        long first = (long) WORD.getVolatile(raw, 8192L);
                        long last = (long) WORD.getVolatile(raw, 8192L + length - 8);
                        if (first != last) {
                            torn.set(true);
                        }
                        Thread.yield();
                    }
                }
            });
            assertTrue(torn.get(), "a write longer than 8 bytes is not atomic: a concurrent reader can see two versions");
        }
    }
}
