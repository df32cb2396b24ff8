package io.remus.alock;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.verbs.testing.DeviceTest;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The IBV_ATOMIC_HCA hazard that ALock exists for, on a real device: two threads on the lock's home
 * node compare-and-swap its word with CPU atomics while a thread of another node does so with RDMA
 * compare-and-swap. Soft-RoCE applies an RDMA CAS as load, compare, store under a kernel lock that
 * CPU atomics ignore, so a CPU CAS landing between the load and the store lets both in; the CPU
 * holder sees the RDMA store's id in the word. The window is tiny, so the naive lock runs in
 * slices until a loss or a deadline of minutes ("some loss over N runs"); ALock then runs the same
 * thread layout with the checked critical section and must lose nothing. Every thread checks the
 * clock on every pass: a remote pass can take milliseconds in an emulated guest.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class MixedAtomicsHazardOnVerbsTest {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final Duration NAIVE_BUDGET = Duration.ofMinutes(4);
    private static final Duration SLICE = Duration.ofSeconds(10);
    private static final int[] NODES = {1, 1, 0};

    private static Function<SimOptions, Fabric> verbs() {
        return Fabrics.verbs().findFirst().orElseThrow().getPayload();
    }

    private static void holdBriefly() {
        for (int i = 0; i < 200; i++) {
            Thread.onSpinWait();
        }
    }

    @DeviceTest
    void shouldLetACpuCasAndAnRdmaCasBothTakeTheNaiveLockInSomeSlice() throws Exception {
        LockOptions options = LockOptions.defaults().withAcquireTimeout(Duration.ofSeconds(15));
        AtomicLong losses = new AtomicLong();
        AtomicLong remoteEntries = new AtomicLong();
        AtomicLong localEntries = new AtomicLong();
        long deadline = System.nanoTime() + NAIVE_BUDGET.toNanos();
        int slices = 0;
        try (TestCluster c = new TestCluster(verbs(), SimOptions.defaults(), 2, NODES.length)) {
            long word = c.lockWord(1);
            MemorySegment raw = c.raw(word, 8);
            while (losses.get() == 0 && System.nanoTime() - deadline < 0) {
                slices++;
                long sliceEnd = System.nanoTime() + SLICE.toNanos();
                c.runOnThreads(NODES, (i, t) -> {
                    LockContext ctx = new LockContext(t, options);
                    NaiveMixedLock lock = new NaiveMixedLock(ctx, word);
                    boolean local = NODES[i] == 1;
                    while (losses.get() == 0 && System.nanoTime() - sliceEnd < 0) {
                        lock.lock();
                        if (local) {
                            holdBriefly();
                            if ((long) WORD.getVolatile(raw, 0L) != ctx.ownerId()) {
                                losses.incrementAndGet();
                            }
                            localEntries.incrementAndGet();
                        } else {
                            remoteEntries.incrementAndGet();
                        }
                        lock.unlock();
                    }
                });
            }
        }
        assertTrue(losses.get() > 0, "no CPU/RDMA CAS race let two holders in over " + slices + " slices of " + SLICE
                + " (" + localEntries.get() + " local and " + remoteEntries.get() + " remote entries)");
        System.out.println("naive lock on verbs: " + losses.get() + " lost exclusion(s) in " + slices + " slice(s), "
                + localEntries.get() + " local and " + remoteEntries.get() + " remote entries");
    }

    @DeviceTest
    void shouldNeverLetTwoHoldersInWhenALockRunsTheSameLayout() throws Exception {
        LockOptions options = LockOptions.defaults().withBudgets(2, 2).withAcquireTimeout(Duration.ofSeconds(15));
        try (TestCluster c = new TestCluster(verbs(), SimOptions.defaults(), 2, NODES.length + 1)) {
            long word = c.lockWord(1);
            CheckedCriticalSection cs = new CheckedCriticalSection(c.block(1, 8 * (CheckedCriticalSection.STAMPS + 1)));
            long sliceEnd = System.nanoTime() + SLICE.toNanos();
            c.runOnThreads(NODES, (i, t) -> {
                LockContext ctx = new LockContext(t, options);
                Lock lock = LockKind.ALOCK.open(ctx, word);
                while (System.nanoTime() - sliceEnd < 0) {
                    lock.lock();
                    cs.run(t, ctx.ownerId());
                    lock.unlock();
                }
            });
            try (ComputeThread t = c.thread(0)) {
                assertEquals(0, cs.overlaps(), "ALock let two holders in");
                assertEquals(cs.entries(), cs.counter(t), "ALock lost a critical-section update");
            }
            assertTrue(cs.entries() > 0);
        }
    }
}
