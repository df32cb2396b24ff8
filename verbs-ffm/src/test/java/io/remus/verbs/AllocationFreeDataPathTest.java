package io.remus.verbs;

import io.remus.verbs.testing.DeviceTest;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The post and poll paths allocate nothing on the Java heap: after warm-up, many loopback
 * READs, WRITEs, compare-and-swaps and fetch-and-adds allocate 0 bytes on the posting thread.
 */
class AllocationFreeDataPathTest {
    private static final int WARM_UP = 30_000;
    private static final int MEASURED = 10_000;

    @DeviceTest
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void shouldAllocateNothingWhenPostingAndPolling() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (LoopbackFixture f = new LoopbackFixture()) {
            SendBatch batch = f.qp.sendBatch(4);
            run(f, batch, WARM_UP);
            long before = threads.getCurrentThreadAllocatedBytes();
            run(f, batch, MEASURED);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(0L, allocated, "bytes allocated over " + MEASURED + " post+poll rounds of 4 operations");
            assertEquals(WARM_UP + MEASURED, f.memory.get(JAVA_LONG, 1024));
        }
    }

    private static void run(LoopbackFixture f, SendBatch batch, int rounds) {
        MemoryRegion mr = f.mr;
        long base = mr.address();
        int rkey = mr.remoteKey();
        WorkCompletions wc = f.completions;
        for (int r = 0; r < rounds; r++) {
            batch.write(r, mr, 0, 64, base + 2048, rkey, false)
                    .read(r, mr, 128, 64, base + 2048, rkey, false)
                    .compareAndSwap(r, mr, 256, base + 1032, rkey, 0L, 0L, false)
                    .fetchAndAdd(r, mr, 264, base + 1024, rkey, 1L, true)
                    .post();
            int n = f.cq.pollUntilAny(wc, LoopbackFixture.TIMEOUT_NANOS);
            for (int i = 0; i < n; i++) {
                if (!wc.isSuccess(i)) {
                    wc.throwIfFailed(i);
                }
            }
        }
    }
}
