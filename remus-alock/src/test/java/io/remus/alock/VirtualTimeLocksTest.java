package io.remus.alock;

import io.remus.alock.asymmetric.ALock;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeRun;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every lock kind on the simulator's virtual-time scheduler: its waiters wait through
 * {@link io.remus.core.time.ThreadTime}, so threads of three nodes contending for one lock run one at a time in
 * virtual time, keep mutual exclusion on every seed, and a seed fixes the order in which they acquire it (other seeds
 * giving other orders). A parked ALock waiter is woken through the scheduler by its hand-over.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VirtualTimeLocksTest {
    private static final int NODES = 3;
    private static final int HOME = 1;
    private static final int DATA_NODE = 2;
    private static final int[] NODE_OF_THREAD = {0, 1, 1, 2};
    private static final int ROUNDS = 5;
    private static final int SEEDS = 20;
    private static final long JOIN_NANOS = Duration.ofSeconds(30).toNanos();
    /** CPU time inside the lock that outlasts twice a waiter's checks before it parks. */
    private static final long LONG_SECTION_NANOS = 2 * ALock.SPINS_BEFORE_PARKING * VirtualTimeOptions.seed(0).spinNanos();
    /** RDMA costs of a ConnectX-5, and simulated addresses, so that a seed replays byte for byte. */
    private static final SimOptions MODEL = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withStraddleOffset(0);

    /** What one run saw: its end in virtual time, who acquired the lock in which order, and the counter. */
    private record Outcome(long endNanos, long switches, List<String> order, long counter, int overlaps) {
    }

    @ParameterizedTest
    @EnumSource(LockKind.class)
    void shouldNeverLoseAnIncrementInsideTheLockOnAnySeed(LockKind kind) throws Exception {
        for (long seed = 1; seed <= SEEDS; seed++) {
            Outcome o = contend(kind, seed);
            String where = kind + " seed " + seed;
            assertEquals(0, o.overlaps(), where + ": two threads inside the lock at once");
            assertEquals((long) NODE_OF_THREAD.length * ROUNDS, o.counter(), where + ": an increment was lost");
            assertEquals(NODE_OF_THREAD.length * ROUNDS, o.order().size(), where);
        }
    }

    @ParameterizedTest
    @EnumSource(LockKind.class)
    void shouldAcquireInTheSameOrderForTheSameSeedAndInOthersForOtherSeeds(LockKind kind) throws Exception {
        Outcome first = contend(kind, 7);
        Outcome second = contend(kind, 7);
        assertEquals(first.order(), second.order(), "the same seed, another order of acquisitions");
        assertEquals(first.endNanos(), second.endNanos(), "the same seed, another end in virtual time");
        assertEquals(first.switches(), second.switches(), "the same seed, another number of switches");
        Set<List<String>> orders = new HashSet<>();
        for (long seed = 1; seed <= 4; seed++) {
            orders.add(contend(kind, seed).order());
        }
        assertTrue(orders.size() > 1, kind + ": seeds 1 to 4 all gave one order of acquisitions: " + orders);
    }

    /**
     * Two threads of the home node take {@link LockKind#ALOCK_PARKING} in turn, each holding it for
     * {@link #LONG_SECTION_NANOS} of CPU time: longer than a waiter's {@link ALock#SPINS_BEFORE_PARKING}
     * checks, so the waiter parks, and the holder's hand-over must wake it through the scheduler; a waiter that no one
     * wakes sleeps until its deadline (the acquire timeout), which the run's end would reach.
     */
    @Test
    void shouldWakeAParkedLocalWaiterByTheHandOverNotItsDeadline() throws Exception {
        Duration timeout = Duration.ofSeconds(1);
        int rounds = 3;
        List<Throwable> failures = new ArrayList<>();
        long[] counter = new long[1];
        VirtualTimeRun run = VirtualTimeScheduler.run(VirtualTimeOptions.seed(3).withHostBudget(Duration.ofSeconds(20)),
                () -> {
                    try (TestCluster c = LockClusters.start(SimFabric::new, MODEL, NODES, 2)) {
                        long word = LockClusters.lockWord(c, HOME);
                        long data = c.block(HOME, 8);
                        LockOptions options = LockOptions.defaults().withAcquireTimeout(timeout);
                        Thread[] threads = new Thread[2];
                        for (int i = 0; i < threads.length; i++) {
                            threads[i] = ThreadTime.newThread("local-" + i, () -> {
                                try (ComputeThread t = c.thread(HOME)) {
                                    Lock lock = LockKind.ALOCK_PARKING.open(new LockContext(t, options), word);
                                    for (int r = 0; r < rounds; r++) {
                                        lock.lock();
                                        try {
                                            long v = t.read(data);
                                            ThreadTime.charge(LONG_SECTION_NANOS);
                                            t.write(data, v + 1);
                                        } finally {
                                            lock.unlock();
                                        }
                                    }
                                } catch (Throwable e) {
                                    failures.add(e);
                                }
                            });
                            threads[i].start();
                        }
                        for (Thread t : threads) {
                            assertTrue(ThreadTime.join(t, JOIN_NANOS), t.getName() + " did not end in 30 s of virtual time");
                        }
                        try (ComputeThread t = c.thread(0)) {
                            counter[0] = t.read(data);
                        }
                    }
                });
        if (!failures.isEmpty()) {
            throw new AssertionError("a local thread failed", failures.get(0));
        }
        assertEquals(2L * rounds, counter[0]);
        assertTrue(run.endNanos() < timeout.toNanos(), "a parked waiter slept until its deadline: the run ended at "
                + run.endNanos() + " ns of virtual time, the deadline " + timeout.toNanos() + " ns after its wait began");
    }

    /**
     * The threads of {@link #NODE_OF_THREAD} each acquire a lock homed on node {@value #HOME} {@value #ROUNDS}
     * times and, inside it, increment a counter on node {@value #DATA_NODE} by a READ then a WRITE (a wait for
     * each, in which the scheduler runs the others).
     */
    private static Outcome contend(LockKind kind, long seed) throws Exception {
        List<String> order = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        long[] counter = new long[1];
        int[] inside = new int[1];
        int[] overlaps = new int[1];
        VirtualTimeRun run = VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed)
                .withHostBudget(Duration.ofSeconds(20)), () -> {
            try (TestCluster c = LockClusters.start(SimFabric::new, MODEL, NODES, 2)) {
                long word = LockClusters.lockWord(c, HOME);
                long data = c.block(DATA_NODE, 8);
                LockOptions options = LockOptions.defaults().withBudgets(3, 2);
                Thread[] threads = new Thread[NODE_OF_THREAD.length];
                for (int i = 0; i < threads.length; i++) {
                    int index = i;
                    int node = NODE_OF_THREAD[i];
                    threads[i] = ThreadTime.newThread("locker-" + i + "@node" + node, () -> {
                        try (ComputeThread t = c.thread(node)) {
                            Lock lock = kind.open(new LockContext(t, options), word);
                            for (int r = 0; r < ROUNDS; r++) {
                                lock.lock();
                                try {
                                    order.add(index + "#" + r);
                                    if (++inside[0] != 1) {
                                        overlaps[0]++;
                                    }
                                    long v = t.read(data);
                                    t.write(data, v + 1);
                                    inside[0]--;
                                } finally {
                                    lock.unlock();
                                }
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    });
                    threads[i].setDaemon(true);
                }
                for (Thread t : threads) {
                    t.start();
                }
                for (Thread t : threads) {
                    assertTrue(ThreadTime.join(t, JOIN_NANOS), t.getName() + " did not end in 30 s of virtual time");
                }
                try (ComputeThread t = c.thread(0)) {
                    counter[0] = t.read(data);
                }
            }
        });
        if (!failures.isEmpty()) {
            AssertionError e = new AssertionError(kind + " seed " + seed + ": a locker failed", failures.get(0));
            failures.stream().skip(1).forEach(e::addSuppressed);
            throw e;
        }
        return new Outcome(run.endNanos(), run.switches(), List.copyOf(order), counter[0], overlaps[0]);
    }
}
