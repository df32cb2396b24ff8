package io.remus.ds.reclaim;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link EpochReclaimer} with {@link EpochOptions#defaults()} (only the clock is the test's, stopped, so that
 * a stalled guard's lease holds throughout): a thread that retires more than a MiB while another thread's
 * guard holds the epoch back closes every guard without waiting for it; what it retired stays unreclaimed
 * until the stalled guard lets go, and a pass frees it then.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EpochDefaultsProgressTest {
    private static final int BLOCK = 4096;

    @Test
    void shouldCloseEveryGuardWithoutWaitingWhileAStalledGuardHoldsTheEpochBack() {
        AtomicLong clock = new AtomicLong(1_000_000);
        EpochOptions options = EpochOptions.defaults().withClock(clock::get);
        int blocks = (1 << 20) / BLOCK + 2;
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> b.segmentSize(4 << 20));
             ComputeThread ta = c.thread(0); ComputeThread tb = c.thread(1)) {
            RemoteAllocator alloc = new RemoteAllocator(ta);
            EpochReclaimer a = new EpochReclaimer(ta, alloc, options);
            EpochReclaimer b = new EpochReclaimer(tb, new RemoteAllocator(tb), options);
            Guard stalled = b.enter();
            for (int i = 0; i < blocks; i++) {
                long p = alloc.allocate(BLOCK, 2);
                try (Guard g = a.enter()) {
                    a.retire(p, BLOCK);
                }
            }
            assertEquals(0, a.limitTimeouts(), "no guard close waited for the stalled guard");
            assertEquals((long) blocks * BLOCK, a.unreclaimedBytes(), "nothing was freed while the stalled guard held on");
            long bound = 1 + a.unreclaimedBytes() / (options.passBytes() / 4);
            assertTrue(a.passes() <= bound, "a pass per quarter of passBytes retired, at most " + bound + ", ran " + a.passes());
            assertTrue(stalled.valid(), "the stalled guard's lease held throughout");
            stalled.close();
            for (int i = 0; i < 3; i++) {
                a.reclaim();
            }
            assertEquals(0, a.unreclaimedBytes(), "freed once the stalled guard let go");
            a.close();
            b.close();
        }
    }
}
