package io.remus.bench.numa;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryProbeTest {
    @Test
    void shouldVisitEveryLineOnceWhenTheChaseFollowsTheCycle() {
        try (Arena a = Arena.ofConfined()) {
            int lines = 1000;
            MemorySegment m = a.allocate((long) lines * MemoryProbe.LINE, 64);
            MemoryProbe.linkCycle(m, 7);
            boolean[] seen = new boolean[lines];
            long p = 0;
            for (int i = 0; i < lines; i++) {
                assertTrue(p % MemoryProbe.LINE == 0 && p >= 0 && p < m.byteSize());
                int line = (int) (p / MemoryProbe.LINE);
                assertTrue(!seen[line], "line " + line + " visited twice");
                seen[line] = true;
                p = m.get(ValueLayout.JAVA_LONG, p);
            }
            assertEquals(0, p);
            assertTrue(MemoryProbe.chaseNanos(m, 10_000) > 0);
            assertTrue(MemoryProbe.sequentialGigabytesPerSecond(m, 1 << 20) > 0);
        }
    }

    @Test
    void shouldRefuseAChaseWhenTheRegionHoldsOneLine() {
        try (Arena a = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> MemoryProbe.linkCycle(a.allocate(64), 1));
        }
    }
}
