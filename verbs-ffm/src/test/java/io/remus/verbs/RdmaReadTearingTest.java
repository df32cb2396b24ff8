package io.remus.verbs;

import io.remus.verbs.testing.DeviceCondition;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whether an aligned 8-byte RDMA READ of a word that a CPU stores meanwhile can return half of the
 * old and half of the new value on Soft-RoCE: rxe's responder copies the payload out of the region
 * with the kernel's memcpy, as it copies a WRITE's payload in ({@link RdmaWriteTearingTest}). A CPU
 * thread stores 0 and -1 in turn while RDMA READs of the word run; any other value read is torn.
 * Tagged {@code hazard} (outside CI, in {@code tools/scripts/lock-hazard-rxe}): whether the window
 * is hit depends on how the guest's vCPUs are scheduled. It prints the count either way.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RdmaReadTearingTest {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final int SOFT_ROCE_VENDOR = 0xffffff;

    @Test
    @Tag("hazard")
    @ExtendWith(DeviceCondition.class)
    void shouldLetAnRdmaReadSeeHalfOfAWordACpuStoresOnSoftRoce() throws Exception {
        try (LoopbackFixture f = new LoopbackFixture()) {
            Assumptions.assumeTrue(f.context.queryDevice().vendorId() == SOFT_ROCE_VENDOR, "a Soft-RoCE fact");
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = Thread.ofPlatform().name("torn-read-writer").start(() -> {
                long v = 0;
                while (!stop.get()) {
                    v = ~v;
                    WORD.setVolatile(f.memory, 1024L, v);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            long reads = 0;
            long torn = 0;
            long example = 0;
            SendBatch batch = f.qp.sendBatch(1);
            try {
                while (torn == 0 && System.nanoTime() < deadline) {
                    batch.read(reads, f.mr, 2048, 8, f.mr.address() + 1024, f.mr.remoteKey(), true).post();
                    f.awaitSuccesses(1);
                    long v = f.memory.get(ValueLayout.JAVA_LONG, 2048);
                    if (v != 0 && v != -1) {
                        torn++;
                        example = v;
                    }
                    reads++;
                }
            } finally {
                stop.set(true);
                writer.join();
            }
            System.out.println("rdma-read-tearing: " + torn + " torn in " + reads + " READs"
                    + (torn > 0 ? ", e.g. 0x" + Long.toHexString(example) : ""));
            assertTrue(torn > 0, "no torn value in " + reads + " RDMA READs of a word a CPU stores 0 and -1 into in turn");
        }
    }
}
