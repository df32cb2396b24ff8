package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The duplicate resolution of {@link RemoteHashMap}'s first inserts, driven through one exact interleaving
 * on the simulator by freezing threads between RDMA operations ({@link SimFabric#freeze}): an insert that
 * re-read its key's buckets after its claim and found another insert's pending slot must not commit when,
 * by the time its compare-and-swap withdraws that pending word, the other insert has committed and a put
 * has replaced the value. The compare-and-swap then fails with the replacing put's word, neither the
 * pending word nor the committed word it became.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RemoteHashMapFrozenInsertTest {
    private static final int HOME = 1;
    private static final long KEY = 1;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration MAX_FROZEN = Duration.ofSeconds(50);
    private static final int MAX_STEPS = 10_000;

    /** A thread with its own compute thread and handle on the map, running what it is given in order. */
    private static final class Worker implements AutoCloseable {
        private final ExecutorService executor;
        private final Thread thread;
        private ComputeThread compute;
        private NeverReclaimer reclaimer;
        private RemoteHashMap map;

        Worker(TestCluster c, int node, long ptr, String name) throws Exception {
            Thread[] made = new Thread[1];
            executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, name + "@node" + node);
                t.setDaemon(true);
                made[0] = t;
                return t;
            });
            run(() -> {
                compute = c.thread(node);
                reclaimer = new NeverReclaimer(compute);
                map = RemoteHashMap.attach(compute, reclaimer, ptr);
                return null;
            }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            thread = made[0];
        }

        <T> Future<T> run(Callable<T> work) {
            return executor.submit(work);
        }

        Future<Boolean> put(long key, byte[] value) {
            return run(() -> map.put(key, value));
        }

        @Override
        public void close() throws Exception {
            run(() -> {
                reclaimer.close();
                compute.close();
                return null;
            }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            executor.shutdown();
        }
    }

    /**
     * Starts {@code worker}'s put of {@code key} and lets it apply its work requests one at a time until it
     * is parked before a compare-and-swap while the table holds {@code pending} pending slot words.
     *
     * @return the freeze it is parked in, and its put, still running
     */
    private static Frozen putUntilParked(SimFabric sim, TestCluster c, long table, Worker worker, byte[] value,
                                         IntPredicate pending) throws Exception {
        SimFreeze f = sim.freeze(worker.thread, 0, MAX_FROZEN);
        Future<Boolean> put = worker.put(KEY, value);
        for (int step = 0; step < MAX_STEPS; step++) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!f.awaitFrozen(Duration.ofMillis(10))) {
                assertFalse(put.isDone(), () -> "the put finished before it reached the compare-and-swap it is held before: "
                        + resultOf(put));
                assertTrue(System.nanoTime() - deadline < 0, "the put applied its next work request within " + WAIT);
            }
            if (f.frozenAt() == Opcode.COMPARE_AND_SWAP && pending.test(pendingSlots(c, table))) {
                return new Frozen(f, put);
            }
            SimFreeze next = sim.freeze(worker.thread, 0, MAX_FROZEN);
            f.release();
            f = next;
        }
        throw new AssertionError("the put did not reach the compare-and-swap within " + MAX_STEPS + " work requests");
    }

    private static String resultOf(Future<Boolean> put) {
        try {
            return String.valueOf(put.get());
        } catch (Exception e) {
            return e.toString();
        }
    }

    /** A put parked by a freeze. */
    private record Frozen(SimFreeze freeze, Future<Boolean> put) {
        boolean releaseAndAwait() throws Exception {
            freeze.release();
            boolean inserted = put.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertFalse(freeze.expired(), "released by the test, not by the freeze's deadline");
            return inserted;
        }
    }

    /** @return how many slot words of the table are pending, as the home node's CPU sees them */
    private static int pendingSlots(TestCluster c, long table) {
        MemorySegment words = c.raw(table, 2L * RemoteHashMap.BUCKET_BYTES);
        int n = 0;
        for (int i = 0; i < 2 * RemoteHashMap.SLOTS_PER_BUCKET; i++) {
            if (Slot.isPending(words.get(ValueLayout.JAVA_LONG, 8L * i))) {
                n++;
            }
        }
        return n;
    }

    /** @return a key other than {@link #KEY} with the same first bucket and another fingerprint */
    private static long filler() {
        long k = KEY + 1;
        while (Slot.firstBucket(k, 2) != Slot.firstBucket(KEY, 2) || Slot.fingerprintOf(k) == Slot.fingerprintOf(KEY)) {
            k++;
        }
        return k;
    }

    /**
     * Insert A claims slot 0 of the key's second bucket (slot 0 of its first bucket holds another key, so
     * the second is the emptier) and is parked before the compare-and-swap that commits it; the first
     * bucket's slot 0 is emptied; insert B claims it (that bucket is the emptier now), re-reads, finds A's
     * pending word later in slot order and is parked before the compare-and-swap that would withdraw it. A commits
     * (inserted), then a put replaces A's value in place (not inserted); B's compare-and-swap then fails
     * with the replacing word. The key was present all along since A's commit, so B must not answer
     * inserted, and the map must not hold the key twice: after one remove the key is absent.
     */
    @Test
    void shouldAnswerReplacedWhenTheClaimItWithdrawsWasCommittedAndReplacedMeanwhile() throws Exception {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { });
             ComputeThread t = c.thread(2);
             NeverReclaimer r = new NeverReclaimer(t)) {
            SimFabric sim = (SimFabric) c.fabric();
            RemoteHashMap map = RemoteHashMap.create(t, r, HOME, 2, 16);
            long table = c.raw(map.ptr(), RemoteHashMap.ROOT_BYTES).get(ValueLayout.JAVA_LONG, 16);
            long filler = filler();
            assertTrue(map.put(filler, new byte[] {9}), "the other key takes slot 0 of the key's first bucket");
            try (Worker a = new Worker(c, 0, map.ptr(), "insert-a"); Worker b = new Worker(c, 2, map.ptr(), "insert-b")) {
                Frozen first = putUntilParked(sim, c, table, a, new byte[] {1}, n -> n == 1);
                assertTrue(map.remove(filler), "slot 0 is empty again");
                Frozen second = putUntilParked(sim, c, table, b, new byte[] {2}, n -> n == 2);
                assertTrue(first.releaseAndAwait(), "A commits its claim: the key was absent, A inserted it");
                assertFalse(map.put(KEY, new byte[] {3}), "the key is present: the put replaces A's value");
                assertFalse(second.releaseAndAwait(), "the key was present since A's commit: B replaces, not inserts");
                assertArrayEquals(new byte[] {2}, map.get(KEY), "B's value is the key's");
                assertTrue(map.remove(KEY), "the key is removed");
                assertNull(map.get(KEY), "one remove leaves the key absent: the map never held it twice");
                assertEquals(0, pendingSlots(c, table), "no claim is left pending");
            }
        }
    }
}
