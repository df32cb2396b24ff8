package io.remus.core;

import io.remus.core.fabric.Opcode;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Carving under contention, in virtual time on the connectx3 model (deterministic: seed 1): {@code n} allocators
 * of one node start together and each carves {@link #ALLOCATIONS} blocks from the same segment of another node. The
 * watermark's atomics per allocation must not grow with {@code n}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RemoteAllocatorContentionTest {
    private static final int ALLOCATIONS = 64;
    private static final long SECOND = 1_000_000_000L;

    /**
     * Every block is carved (the pools are empty), so an allocation's atomics are its header's compare-and-swap plus
     * its share of the watermark's atomics; the rest, summed over the allocators, is the watermark's.
     */
    @ParameterizedTest
    @ValueSource(ints = {8, 32})
    void shouldSpendAtMostOneWatermarkAtomicPerRunWhateverTheNumberOfAllocators(int allocators) {
        AtomicLong watermarkAtomics = new AtomicLong();
        Set<Long> blocks = ConcurrentHashMap.newKeySet();
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1).withSpinNanos(100), () -> {
            try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults().withCostModel(SimCostModel.CONNECTX3), 2,
                    b -> b.threadsPerNode(allocators + 1).segmentSize(4 << 20))) {
                AtomicInteger ready = new AtomicInteger();
                AtomicBoolean go = new AtomicBoolean();
                List<Thread> workers = new ArrayList<>();
                for (int w = 0; w < allocators; w++) {
                    Thread worker = ThreadTime.newThread("allocator-" + w, () -> {
                        try (ComputeThread t = c.node(0).newComputeThread()) {
                            RemoteAllocator a = new RemoteAllocator(t);
                            ready.incrementAndGet();
                            while (!go.get()) {
                                ThreadTime.onSpinWait("the start");
                            }
                            long before = atomics(t);
                            for (int i = 0; i < ALLOCATIONS; i++) {
                                assertTrue(blocks.add(a.allocate(64, 1)), "a block handed out twice");
                            }
                            watermarkAtomics.addAndGet(atomics(t) - before - ALLOCATIONS);
                        }
                    });
                    workers.add(worker);
                    worker.start();
                }
                while (ready.get() < allocators) {
                    ThreadTime.onSpinWait("every allocator ready");
                }
                go.set(true);
                for (Thread worker : workers) {
                    assertTrue(ThreadTime.join(worker, 60 * SECOND), worker.getName() + " ended");
                }
            }
        });
        assertEquals((long) allocators * ALLOCATIONS, blocks.size());
        assertTrue(blocks.stream().allMatch(p -> RemotePtr.node(p) == 1));
        long perAllocator = ALLOCATIONS / RemoteAllocator.RUN_BLOCKS + 1;
        assertTrue(watermarkAtomics.get() <= allocators * perAllocator, allocators + " allocators of " + ALLOCATIONS
                + " blocks each spent " + watermarkAtomics.get() + " atomics on the watermark, more than " + perAllocator
                + " per allocator (" + String.format("%.3f", (double) watermarkAtomics.get() / allocators / ALLOCATIONS)
                + " per allocation)");
    }

    private static long atomics(ComputeThread t) {
        return t.postedOperations(Opcode.COMPARE_AND_SWAP) + t.postedOperations(Opcode.FETCH_AND_ADD);
    }
}
