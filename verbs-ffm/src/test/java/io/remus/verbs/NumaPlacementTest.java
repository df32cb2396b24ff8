package io.remus.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Memory bound to node 0 and a thread pinned to one CPU on this host (node 0 always exists, with
 * memory and CPUs), and every bad argument refused with {@link InvalidArgumentException} before
 * the native call (where the call would have been made, the kernel's refusal would be a plain
 * {@link VerbsException}, or the call would succeed).
 */
@Timeout(30)
class NumaPlacementTest {
    private static final long PAGE = NumaPlacement.pageSize();

    @Test
    void shouldPlaceEveryPageOnNodeZeroWhenMemoryIsBoundToIt() {
        MemorySegment region = NumaPlacement.map(8 * PAGE);
        try {
            NumaPlacement.bind(region, 0, 0);
            for (long off = 0; off < region.byteSize(); off += PAGE) {
                region.set(ValueLayout.JAVA_LONG, off, off);
            }
            int[] nodes = NumaPlacement.pageNodes(region);
            assertEquals(8, nodes.length);
            assertTrue(Arrays.stream(nodes).allMatch(n -> n == 0), () -> "page nodes " + Arrays.toString(nodes));
        } finally {
            NumaPlacement.unmap(region);
        }
    }

    @Test
    void shouldRunOnTheOnlyCpuAllowedWhenPinned() throws InterruptedException {
        AtomicInteger before = new AtomicInteger(-1);
        AtomicInteger after = new AtomicInteger(-1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                int cpu = NumaPlacement.currentCpu();
                before.set(cpu);
                NumaPlacement.pinCurrentThread(List.of(cpu));
                after.set(NumaPlacement.currentCpu());
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertTrue(t.join(Duration.ofSeconds(20)));
        assertNull(failure.get());
        assertEquals(before.get(), after.get());
    }

    @Test
    void shouldNameTheCallAndErrnoWhenTheKernelRefuses() throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                NumaPlacement.pinCurrentThread(List.of(NumaPlacement.MAX_CPU_ID));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertTrue(t.join(Duration.ofSeconds(20)));
        VerbsException e = assertInstanceOf(VerbsException.class, failure.get());
        assertFalse(e instanceof InvalidArgumentException, "the kernel refused, not the checks: " + e);
        assertEquals("sched_setaffinity", e.function());
        assertEquals(22, e.errno());
        assertTrue(e.getMessage().contains("errno 22 (EINVAL: "), e.getMessage());
    }

    @Test
    void shouldRejectBadRegionsBeforeNativeCode() {
        assertThrows(InvalidArgumentException.class, () -> NumaPlacement.map(0));
        assertThrows(InvalidArgumentException.class, () -> NumaPlacement.map(-PAGE));
        assertThrows(InvalidArgumentException.class, () -> NumaPlacement.map(PAGE + 1));
        MemorySegment region = NumaPlacement.map(2 * PAGE);
        try (Arena arena = Arena.ofConfined()) {
            List<MemorySegment> bad = new ArrayList<>();
            bad.add(null);
            bad.add(MemorySegment.ofArray(new byte[(int) PAGE]));
            bad.add(MemorySegment.NULL);
            bad.add(region.asSlice(0, 0));
            bad.add(region.asSlice(8, PAGE));
            bad.add(region.asSlice(0, PAGE + 8));
            bad.add(arena.allocate(PAGE, 8).asSlice(8, PAGE - 8));
            for (MemorySegment r : bad) {
                assertThrows(InvalidArgumentException.class, () -> NumaPlacement.unmap(r), "unmap " + r);
                assertThrows(InvalidArgumentException.class, () -> NumaPlacement.bind(r, 0, 0), "bind " + r);
                assertThrows(InvalidArgumentException.class, () -> NumaPlacement.pageNodes(r), "pageNodes " + r);
            }
        } finally {
            NumaPlacement.unmap(region);
        }
    }

    @Test
    void shouldRejectBadNodeIdsBeforeNativeCode() {
        MemorySegment region = NumaPlacement.map(PAGE);
        try {
            assertThrows(InvalidArgumentException.class, () -> NumaPlacement.bind(region, -1, 0));
            assertThrows(InvalidArgumentException.class, () -> NumaPlacement.bind(region, 1, 0));
            assertThrows(InvalidArgumentException.class, () -> NumaPlacement.bind(region, 0, -1));
            assertThrows(InvalidArgumentException.class,
                    () -> NumaPlacement.bind(region, 0, NumaPlacement.MAX_NODE_ID + 1));
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                    () -> NumaPlacement.bind(region, 5, 3));
            assertTrue(e.getMessage().contains("got 5"), e.getMessage());
        } finally {
            NumaPlacement.unmap(region);
        }
    }

    @Test
    void shouldRejectBadCpusBeforeNativeCode() throws InterruptedException {
        List<List<Integer>> bad = new ArrayList<>();
        bad.add(null);
        bad.add(List.of());
        bad.add(List.of(-1));
        bad.add(List.of(0, NumaPlacement.MAX_CPU_ID + 1));
        bad.add(Arrays.asList(0, null));
        List<Throwable> failures = new ArrayList<>();
        Thread t = Thread.ofPlatform().start(() -> {
            for (List<Integer> cpus : bad) {
                try {
                    NumaPlacement.pinCurrentThread(cpus);
                    failures.add(null);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }
        });
        assertTrue(t.join(Duration.ofSeconds(20)));
        assertEquals(bad.size(), failures.size());
        for (int i = 0; i < bad.size(); i++) {
            assertTrue(failures.get(i) instanceof InvalidArgumentException, bad.get(i) + ": " + failures.get(i));
        }
        InvalidArgumentException e = (InvalidArgumentException) failures.get(2);
        assertTrue(e.getMessage().contains("got -1"), e.getMessage());
    }

    @Test
    void shouldRefuseToPinAVirtualThreadBeforeNativeCode() throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread v = Thread.ofVirtual().start(() -> {
            try {
                NumaPlacement.pinCurrentThread(List.of(0));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertTrue(v.join(Duration.ofSeconds(20)));
        assertTrue(failure.get() instanceof InvalidArgumentException, String.valueOf(failure.get()));
    }
}
