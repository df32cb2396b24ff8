package io.remus.alock.mcs;

import io.remus.alock.Lock;
import io.remus.alock.LockClusters;
import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The work requests of an uncontended MCS lock and unlock, counted on the simulator with {@link SimFreeze}: two
 * compare-and-swaps (the tail's swap and its release), as {@link RdmaMcsLock} states, for a thread on another node
 * and for one on the lock's home node (loopback). The thread's own queue node is reset by CPU stores before the
 * swap publishes it, not by RDMA WRITEs through loopback.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RdmaMcsLockWorkRequestsTest {
    private static final int HOME = 1;

    @ParameterizedTest(name = "thread on node {0}")
    @ValueSource(ints = {0, HOME})
    void shouldPostTwoCompareAndSwapsAndNoWriteWhenUncontended(int node) throws Exception {
        try (TestCluster c = LockClusters.start(SimFabric::new, SimOptions.defaults(), 2, 1)) {
            SimFabric fabric = (SimFabric) c.fabric();
            long word = LockClusters.lockWord(c, HOME);
            c.runOnThreads(new int[] {node}, (i, t) -> {
                Lock lock = LockKind.MCS.open(new LockContext(t, LockOptions.defaults()), word);
                lock.lock();
                lock.unlock(); // the first pair takes the queue node from the pool; count the second

                // A third work request would park this thread (for at most 100 ms) and name its operation.
                SimFreeze third = fabric.freeze(Thread.currentThread(), 2, Duration.ofMillis(100));
                lock.lock();
                lock.unlock();
                third.release();
                assertNull(third.frozenAt(), "an uncontended lock and unlock posted a third work request");

                // The second one is a compare-and-swap (the release), and so is the first (the tail's swap).
                SimFreeze second = fabric.freeze(Thread.currentThread(), 1, Duration.ofMillis(100));
                lock.lock();
                lock.unlock();
                second.release();
                assertEquals(Opcode.COMPARE_AND_SWAP, second.frozenAt());
                SimFreeze first = fabric.freeze(Thread.currentThread(), 0, Duration.ofMillis(100));
                lock.lock();
                lock.unlock();
                first.release();
                assertEquals(Opcode.COMPARE_AND_SWAP, first.frozenAt());
            });
        }
    }
}
