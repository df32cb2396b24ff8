package io.remus.verbs;

import io.remus.verbs.testing.DeviceTest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Soft-RoCE fact code must live with: an aligned 8-byte RDMA WRITE is not atomic for a CPU that
 * reads the word meanwhile. rxe's responder copies the payload into the region with the kernel's
 * memcpy, and a reader on another CPU can see the new low half beside the old high half (first seen
 * as a bench server reading size number 255 while "done", -1, overwrote 1; 243 torn reads in 48,010
 * writes in the probe this test comes from). A NIC writes the word by DMA, which is not known to
 * tear; this test runs only on rxe. Words a CPU polls while a peer RDMA-WRITEs them need a check
 * of their own (the bench's control words) or an RDMA atomic, which rxe applies as one 8-byte store.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RdmaWriteTearingTest {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final int SOFT_ROCE_VENDOR = 0xffffff;

    @DeviceTest
    void shouldLetACpuReadSeeHalfOfAnEightByteRdmaWriteOnSoftRoce() throws Exception {
        try (LoopbackFixture f = new LoopbackFixture()) {
            Assumptions.assumeTrue(f.context.queryDevice().vendorId() == SOFT_ROCE_VENDOR, "a Soft-RoCE fact");
            f.memory.set(ValueLayout.JAVA_LONG, 0, -1L);
            f.memory.set(ValueLayout.JAVA_LONG, 8, 0L);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong torn = new AtomicLong();
            Thread reader = Thread.ofPlatform().name("torn-write-reader").start(() -> {
                while (!stop.get()) {
                    long v = (long) WORD.getVolatile(f.memory, 1024L);
                    if (v != 0 && v != -1) {
                        torn.set(v);
                        return;
                    }
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            long writes = 0;
            SendBatch batch = f.qp.sendBatch(1);
            try {
                while (torn.get() == 0 && System.nanoTime() < deadline) {
                    batch.write(writes, f.mr, (writes & 1) * 8, 8, f.mr.address() + 1024, f.mr.remoteKey(), true).post();
                    f.awaitSuccesses(1);
                    writes++;
                }
            } finally {
                stop.set(true);
                reader.join();
            }
            assertTrue(torn.get() != 0, "no torn read in " + writes + " RDMA WRITEs alternating 0 and -1");
        }
    }
}
