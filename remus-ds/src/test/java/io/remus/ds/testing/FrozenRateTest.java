package io.remus.ds.testing;

import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FrozenRate} catches an object that is not lock-free: a remote word read under a lock, whose holder,
 * frozen inside the critical section, stops every other thread.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FrozenRateTest {
    private static final int HOME = 1;
    private static final long WAIT_SECONDS = 100;

    /**
     * A read of a remote word under a lock that every thread shares: a thread frozen before the READ (its work
     * request 0) holds the lock, and the others wait for it.
     */
    private static FrozenRate.Handle lockedRead(ComputeThread t, long word, ReentrantLock lock) {
        return () -> {
            try {
                if (!lock.tryLock(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new AssertionError("the lock was never released");
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            try {
                t.read(word);
            } finally {
                lock.unlock();
            }
        };
    }

    @Test
    void shouldCatchAnObjectWhoseFrozenThreadStopsTheOthers() throws Exception {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> b.segmentSize(1 << 20))) {
            long word;
            try (ComputeThread t = c.thread(2)) {
                word = t.allocator().allocate(Long.BYTES, HOME);
                t.write(word, 0);
            }
            ReentrantLock lock = new ReentrantLock(true);
            AssertionError e = assertThrows(AssertionError.class,
                    () -> FrozenRate.assertOthersKeepHalfTheirRate(c, (i, t, r) -> lockedRead(t, word, lock)));
            assertTrue(e.getMessage().startsWith("frozen before work request 0 in each of " + FrozenRate.ATTEMPTS + " windows"),
                    e.getMessage());
        }
    }
}
