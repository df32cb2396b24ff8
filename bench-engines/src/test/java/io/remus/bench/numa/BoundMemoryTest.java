package io.remus.bench.numa;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mbind, move_pages and sched_setaffinity on this host's real topology (one node or more). */
class BoundMemoryTest {
    private static final NumaTopology TOPOLOGY = NumaTopology.read();

    @Test
    void shouldPlaceEveryPageOnTheNodeWhenMemoryIsBoundToIt() {
        for (NumaNode node : TOPOLOGY.nodes()) {
            if (!node.hasMemory()) {
                continue;
            }
            try (BoundMemory m = BoundMemory.allocate(1 << 20, node.id(), TOPOLOGY)) {
                m.segment().set(ValueLayout.JAVA_LONG, 4096, 42L);
                assertEquals(42L, m.segment().get(ValueLayout.JAVA_LONG, 4096));
                long[] pages = m.pagesOnNode(TOPOLOGY.maxNodeId() + 1);
                long total = 0;
                for (long p : pages) {
                    total += p;
                }
                assertEquals(m.segment().byteSize() / 4096, total);
                assertEquals(total, pages[node.id()], "pages per node: " + java.util.Arrays.toString(pages));
            }
        }
    }

    @Test
    void shouldRoundUpToWholePagesWhenTheLengthIsOdd() {
        try (BoundMemory m = BoundMemory.allocate(5000, 0, TOPOLOGY)) {
            assertEquals(0, m.segment().byteSize() % 4096);
            assertTrue(m.segment().byteSize() >= 5000);
        }
    }

    @Test
    void shouldRejectBadArgumentsBeforeAnyNativeCall() {
        assertThrows(BadArgumentException.class, () -> BoundMemory.allocate(0, 0, TOPOLOGY));
        assertThrows(BadArgumentException.class, () -> BoundMemory.allocate(-1, 0, TOPOLOGY));
        assertThrows(BadArgumentException.class, () -> BoundMemory.allocate(1L << 41, 0, TOPOLOGY));
        assertThrows(BadArgumentException.class, () -> BoundMemory.allocate(4096, 4000, TOPOLOGY));
        NumaTopology memoryless = new NumaTopology(List.of(new NumaNode(0, List.of(0), false)));
        assertThrows(BadArgumentException.class, () -> BoundMemory.allocate(4096, 0, memoryless));
    }

    @Test
    void shouldRunOnTheNodesCpusWhenAThreadIsPinned() throws InterruptedException {
        for (NumaNode node : TOPOLOGY.nodes()) {
            if (node.cpus().isEmpty()) {
                continue;
            }
            AtomicInteger seen = new AtomicInteger(-1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    CpuPinning.pinTo(node.id(), TOPOLOGY);
                    seen.set(CpuPinning.currentCpu());
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            assertTrue(t.join(java.time.Duration.ofSeconds(30)));
            assertEquals(null, failure.get());
            assertTrue(node.cpus().contains(seen.get()), "cpu " + seen.get() + " not in " + node.cpus());
        }
    }

    @Test
    void shouldRefuseToPinWhenTheNodeHasNoCpusOrTheThreadIsVirtual() throws InterruptedException {
        NumaTopology cpuless = new NumaTopology(List.of(new NumaNode(0, List.of(), true)));
        assertThrows(BadArgumentException.class, () -> CpuPinning.pinTo(0, cpuless));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread v = Thread.ofVirtual().start(() -> {
            try {
                CpuPinning.pinTo(0, TOPOLOGY);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertTrue(v.join(java.time.Duration.ofSeconds(30)));
        assertTrue(failure.get() instanceof BadArgumentException, String.valueOf(failure.get()));
    }
}
