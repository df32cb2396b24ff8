package io.remus.verbs.ffi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory and CPU calls of {@link LibC} on this host (node 0 always exists, with memory and
 * CPUs), errno capture, and the checks that keep bad sizes out of native code. A check is shown
 * to come first by a call state whose arena is closed: a downcall would throw
 * {@link IllegalStateException} instead.
 */
@Timeout(30)
class LibCNumaTest {

    @Test
    void shouldPlacePagesOnNodeZeroWhenMemoryIsBoundToIt() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(arena);
            long page = LibC.sysconf(state, LibC._SC_PAGESIZE);
            assertTrue(page >= 4096, "page size " + page);
            long length = 4 * page;
            MemorySegment region = LibC.mmap(state, MemorySegment.NULL, length, LibC.PROT_READ | LibC.PROT_WRITE,
                    LibC.MAP_PRIVATE | LibC.MAP_ANONYMOUS, -1, 0L);
            assertNotEquals(-1L, region.address(), () -> "mmap: " + Errno.describe(Errno.get(state)));
            region = region.reinterpret(length);
            MemorySegment mask = arena.allocate(JAVA_LONG, 1);
            mask.set(JAVA_LONG, 0, 1L);
            assertEquals(0L, LibC.mbind(state, region, length, LibC.MPOL_BIND, mask, 65,
                    LibC.MPOL_MF_STRICT | LibC.MPOL_MF_MOVE), () -> "mbind: " + Errno.describe(Errno.get(state)));
            MemorySegment pages = arena.allocate(ADDRESS, 4);
            for (int i = 0; i < 4; i++) {
                region.set(JAVA_LONG, i * page, 7L);
                pages.setAtIndex(ADDRESS, i, MemorySegment.ofAddress(region.address() + i * page));
            }
            MemorySegment status = arena.allocate(JAVA_INT, 4);
            status.fill((byte) -1);
            assertEquals(0L, LibC.move_pages(state, 0, 4, pages, MemorySegment.NULL, status, 0));
            for (int i = 0; i < 4; i++) {
                assertEquals(0, status.getAtIndex(JAVA_INT, i), "page " + i);
            }
            assertEquals(0, LibC.munmap(state, region, length));
        }
    }

    @Test
    void shouldCaptureEinvalWhenTheMemoryPolicyModeIsUnknown() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(arena);
            long page = LibC.sysconf(state, LibC._SC_PAGESIZE);
            MemorySegment region = LibC.mmap(state, MemorySegment.NULL, page, LibC.PROT_READ | LibC.PROT_WRITE,
                    LibC.MAP_PRIVATE | LibC.MAP_ANONYMOUS, -1, 0L).reinterpret(page);
            MemorySegment mask = arena.allocate(JAVA_LONG, 1);
            mask.set(JAVA_LONG, 0, 1L);
            assertEquals(-1L, LibC.mbind(state, region, page, 999, mask, 65, 0));
            assertEquals(Errno.EINVAL, Errno.get(state));
            assertEquals(0, LibC.munmap(state, region, page));
        }
    }

    @Test
    void shouldRunOnTheOnlyAllowedCpuWhenAffinityIsSet() throws InterruptedException {
        int[] seen = {-2};
        Thread t = Thread.ofPlatform().start(() -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = Errno.allocate(arena);
                int cpu = LibC.sched_getcpu(state);
                MemorySegment mask = arena.allocate(JAVA_LONG, cpu / 64 + 1);
                mask.setAtIndex(JAVA_LONG, cpu / 64, 1L << (cpu % 64));
                if (LibC.sched_setaffinity(state, 0, mask.byteSize(), mask) == 0) {
                    seen[0] = LibC.sched_getcpu(state) == cpu ? cpu : -3;
                }
            }
        });
        assertTrue(t.join(java.time.Duration.ofSeconds(20)));
        assertTrue(seen[0] >= 0, "pinned thread ran elsewhere or affinity failed: " + seen[0]);
    }

    @Test
    void shouldRejectBadSizesBeforeNativeCode() {
        MemorySegment closedState;
        MemorySegment one;
        try (Arena arena = Arena.ofConfined()) {
            closedState = Errno.allocate(arena);
        }
        Arena arena = Arena.ofAuto();
        one = arena.allocate(JAVA_LONG, 1);
        MemorySegment anywhere = arena.allocate(4096);
        MemorySegment q = closedState;

        assertThrows(IllegalArgumentException.class, () -> LibC.mmap(q, MemorySegment.NULL, 0, 3, 0x22, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> LibC.mmap(q, MemorySegment.NULL, -4096, 3, 0x22, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> LibC.mmap(q, MemorySegment.NULL, 4096, 3, 0x22, -1, -1));

        assertThrows(IllegalArgumentException.class, () -> LibC.munmap(q, MemorySegment.NULL, 4096));
        assertThrows(IllegalArgumentException.class, () -> LibC.munmap(q, anywhere, 0));

        assertThrows(IllegalArgumentException.class, () -> LibC.mbind(q, MemorySegment.NULL, 4096, 2, one, 65, 0));
        assertThrows(IllegalArgumentException.class, () -> LibC.mbind(q, anywhere, 0, 2, one, 65, 0));
        assertThrows(IllegalArgumentException.class, () -> LibC.mbind(q, anywhere, 4096, 2, one, 66, 0));
        assertThrows(IllegalArgumentException.class, () -> LibC.mbind(q, anywhere, 4096, 2, one, 0, 0));

        MemorySegment twoPages = arena.allocate(ADDRESS, 2);
        MemorySegment twoInts = arena.allocate(JAVA_INT, 2);
        assertThrows(IllegalArgumentException.class,
                () -> LibC.move_pages(q, -1, 2, twoPages, MemorySegment.NULL, twoInts, 0));
        assertThrows(IllegalArgumentException.class,
                () -> LibC.move_pages(q, 0, -1, twoPages, MemorySegment.NULL, twoInts, 0));
        assertThrows(IllegalArgumentException.class,
                () -> LibC.move_pages(q, 0, 3, twoPages, MemorySegment.NULL, arena.allocate(JAVA_INT, 3), 0));
        assertThrows(IllegalArgumentException.class,
                () -> LibC.move_pages(q, 0, 2, twoPages, arena.allocate(JAVA_INT, 1), twoInts, 0));
        assertThrows(IllegalArgumentException.class,
                () -> LibC.move_pages(q, 0, 2, twoPages, MemorySegment.NULL, arena.allocate(JAVA_INT, 1), 0));

        assertThrows(IllegalArgumentException.class, () -> LibC.sched_setaffinity(q, -1, 8, one));
        assertThrows(IllegalArgumentException.class, () -> LibC.sched_setaffinity(q, 0, 0, one));
        assertThrows(IllegalArgumentException.class, () -> LibC.sched_setaffinity(q, 0, 16, one));

        assertThrows(IllegalStateException.class, () -> LibC.sched_getcpu(q),
                "a downcall with a closed call state fails, so the checks above ran first");
    }
}
