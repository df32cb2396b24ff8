package io.remus.alock.spin;

import io.remus.alock.LockClusters;
import io.remus.alock.LockContext;
import io.remus.alock.LockContractTest;
import io.remus.alock.LockOptions;
import io.remus.alock.LockTimeoutException;
import io.remus.alock.LockUsageException;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The spin lock's {@link LockContractTest}, and what its timeout says (who held the word, so a stuck lock can be
 * traced to its owner), and what its release says when the word is not this thread's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RdmaSpinLockTest extends LockContractTest {
    private static final LockOptions QUICK = LockOptions.defaults().withAcquireTimeout(Duration.ofMillis(200));

    @Override
    protected Stream<LockKind> kinds() {
        return Stream.of(LockKind.SPIN);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void shouldNameTheHoldingOwnerWhenAcquiringTimesOut(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 2)) {
            long word = LockClusters.lockWord(c, 0);
            long[] holder = new long[1];
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch timedOut = new CountDownLatch(1);
            c.runOnThreads(new int[] {0, 1}, (i, t) -> {
                LockContext context = new LockContext(t, QUICK);
                RdmaSpinLock lock = new RdmaSpinLock(context, word);
                if (i == 0) {
                    lock.lock();
                    holder[0] = context.ownerId();
                    held.countDown();
                    assertTrue(timedOut.await(10, TimeUnit.SECONDS));
                    lock.unlock();
                } else {
                    assertTrue(held.await(10, TimeUnit.SECONDS));
                    LockTimeoutException e = assertThrows(LockTimeoutException.class, lock::lock);
                    timedOut.countDown();
                    assertTrue(e.getMessage().contains("last held owner " + Long.toHexString(holder[0])), e.getMessage());
                    assertTrue(e.getMessage().contains("this thread is owner " + Long.toHexString(context.ownerId())),
                            e.getMessage());
                    assertFalse(e.getMessage().contains("own id"), e.getMessage());
                }
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void shouldSayTheWordHoldsThisThreadsOwnIdWhenASecondHandleOfTheContextWaits(Function<SimOptions, Fabric> make) {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 1); ComputeThread t = c.thread(1)) {
            long word = LockClusters.lockWord(c, 0);
            LockContext context = new LockContext(t, QUICK);
            RdmaSpinLock first = new RdmaSpinLock(context, word);
            RdmaSpinLock second = new RdmaSpinLock(context, word);
            first.lock();
            LockTimeoutException e = assertThrows(LockTimeoutException.class, second::lock);
            assertTrue(e.getMessage().contains("which is this thread's own id"), e.getMessage());
            first.unlock();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void shouldThrowLockUsageExceptionAndLeaveTheWordWhenReleaseFindsItChangedBySomethingElse(
            Function<SimOptions, Fabric> make) {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 1); ComputeThread t = c.thread(1)) {
            long word = LockClusters.lockWord(c, 0);
            LockContext context = new LockContext(t, QUICK);
            RdmaSpinLock lock = new RdmaSpinLock(context, word);
            lock.lock();
            long stranger = context.ownerId() + 1;
            t.write(word, stranger); // not how the lock changes its word: a bug elsewhere, or another lock kind
            LockUsageException e = assertThrows(LockUsageException.class, lock::unlock);
            assertTrue(e.getMessage().contains("held owner " + Long.toHexString(stranger) + " at release"), e.getMessage());
            assertFalse(lock.isHeld());
            assertEquals(stranger, t.read(word), "the release's compare-and-swap changed nothing");
        }
    }
}
