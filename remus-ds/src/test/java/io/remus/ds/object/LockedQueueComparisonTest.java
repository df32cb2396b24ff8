package io.remus.ds.object;

import io.remus.alock.kind.LockKind;
import io.remus.ds.testing.Contention;
import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.LockTimeoutException;
import io.remus.check.Budget;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
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
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WaitFreeQueue} beside the same bounded queue protected by remus-alock's ALock
 * ({@link LockedObject} over the same sequential queue): on one workload both histories check as linearizable, and each wait-free call
 * stays within its bound in round trips; but when one thread stalls in the middle of an operation
 * ({@link SimFabric#freeze}), the locked queue stops every other thread, local and remote cohorts alike,
 * where the wait-free queue completes the others' operations (and the frozen one's, by helping). A
 * comparison of behaviour, not a benchmark.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LockedQueueComparisonTest {
    private static final int HOME = 1;
    private static final int ELEMENTS = 4;
    private static final int[] NODES = {0, 2, 1, 0};
    private static final int OPS = 80;
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults().withYieldInsideNicAtomics(true), 3,
                b -> b.segmentSize(16 << 20));
    }

    /** One queue operation of a thread, as both queues run it. */
    private interface Queue {
        boolean enqueue(long v);

        boolean dequeue();

        long value();
    }

    private static void workload(Queue q, History.Recorder r, int index, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed * 7919 + index);
        for (int i = 0; i < OPS; i++) {
            Contention.maybeYield();
            if (rnd.nextBoolean()) {
                long v = (index + 1L) * 1_000_000L + i;
                int op = r.invoke(BoundedContainerSpec.PUT, v);
                r.respond(op, q.enqueue(v) ? 1 : 0);
            } else {
                int op = r.invoke(BoundedContainerSpec.TAKE);
                if (q.dequeue()) {
                    r.respond(op, q.value());
                } else {
                    r.respond(op);
                }
            }
        }
    }

    private static History.Recorder[] recorders(History h) {
        History.Recorder[] rs = new History.Recorder[NODES.length];
        for (int i = 0; i < rs.length; i++) {
            rs[i] = h.recorder(i);
        }
        return rs;
    }

    @Test
    void shouldCheckBothQueuesAsLinearizableAndBoundOnlyTheWaitFreeOne() throws InterruptedException {
        LinearizabilityChecker checker = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));
        BoundedContainerSpec spec = new BoundedContainerSpec(true, ELEMENTS);
        for (long seed = 1; seed <= 3; seed++) {
            History locked = new History(HistoryClock.NANO_TIME);
            History waitFree = new History(HistoryClock.NANO_TIME);
            History.Recorder[] lr = recorders(locked);
            History.Recorder[] wr = recorders(waitFree);
            AtomicLong worstWaitFree = new AtomicLong();
            long s = seed;
            try (TestCluster c = cluster()) {
                long word;
                long queuePtr;
                try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                    word = LockedQueue.create(t, HOME, ELEMENTS);
                    queuePtr = WaitFreeQueue.create(t, r, HOME, NODES.length + 1, ELEMENTS).ptr();
                }
                c.runOnThreads(NODES, (index, t) -> {
                    LockedQueue q = LockedQueue.attach(new LockContext(t, LockOptions.defaults()), word, ELEMENTS);
                    workload(new Queue() {
                        @Override
                        public boolean enqueue(long v) {
                            return q.enqueue(v);
                        }

                        @Override
                        public boolean dequeue() {
                            return q.dequeue();
                        }

                        @Override
                        public long value() {
                            return q.value();
                        }
                    }, lr[index], index, s);
                    try (NeverReclaimer reclaimer = new NeverReclaimer(t)) {
                        WaitFreeQueue w = WaitFreeQueue.attach(t, reclaimer, queuePtr);
                        workload(new Queue() {
                            @Override
                            public boolean enqueue(long v) {
                                return measured(t, w, () -> w.enqueue(v));
                            }

                            @Override
                            public boolean dequeue() {
                                return measured(t, w, w::dequeue);
                            }

                            @Override
                            public long value() {
                                return w.value();
                            }

                            private boolean measured(ComputeThread t, WaitFreeQueue w, java.util.function.BooleanSupplier op) {
                                long alloc = w.object().allocatorRoundTrips();
                                long before = t.roundTrips();
                                boolean ok = op.getAsBoolean();
                                long own = t.roundTrips() - before - (w.object().allocatorRoundTrips() - alloc);
                                worstWaitFree.accumulateAndGet(own, Math::max);
                                return ok;
                            }
                        }, wr[index], index, s);
                    }
                });
            }
            checker.check(locked.operations(), spec).assertLinearizable();
            checker.check(waitFree.operations(), spec).assertLinearizable();
            assertTrue(worstWaitFree.get() <= 6, "every wait-free call within 6 round trips besides the allocator, worst "
                    + worstWaitFree.get());
        }
    }

    @Test
    void shouldStopEveryOtherThreadWhenTheLockHolderIsFrozenWhereTheWaitFreeQueueGoesOn() throws Exception {
        try (TestCluster c = cluster()) {
            long root;
            long word;
            long block;
            long queuePtr;
            try (ComputeThread t = c.thread(2); NeverReclaimer r = new NeverReclaimer(t)) {
                root = LockedQueue.create(t, HOME, ELEMENTS);
                word = LockedObject.lockWord(root, WaitFreeQueue.sequential(ELEMENTS).stateBytes());
                block = LockedObject.state(root);
                queuePtr = WaitFreeQueue.create(t, r, HOME, NODES.length + 2, ELEMENTS).ptr();
            }
            CountDownLatch locked = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            CompletableFuture<Boolean> holderDone = new CompletableFuture<>();
            Thread holder = new Thread(() -> {
                try (ComputeThread t = c.thread(0)) {
                    Lock lock = LockKind.ALOCK.open(new LockContext(t, LockOptions.defaults()), word);
                    MemorySegment copy = MemorySegment.ofArray(new long[2 + ELEMENTS]);
                    lock.lock();
                    locked.countDown();
                    assertTrue(go.await(WAIT.toSeconds(), TimeUnit.SECONDS));
                    t.read(block, copy);
                    t.write(block, copy);
                    lock.unlock();
                    holderDone.complete(true);
                } catch (Throwable e) {
                    locked.countDown();
                    holderDone.completeExceptionally(e);
                }
            }, "holder@node0");
            holder.setDaemon(true);
            holder.start();
            assertTrue(locked.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            SimFreeze freeze = ((SimFabric) c.fabric()).freeze(holder, 0, Duration.ofSeconds(90));
            go.countDown();
            assertTrue(freeze.awaitFrozen(WAIT), "the holder is frozen inside its critical section");
            assertEquals(Opcode.READ, freeze.frozenAt());

            AtomicInteger timedOut = new AtomicInteger();
            AtomicInteger waitFreeDone = new AtomicInteger();
            c.runOnThreads(NODES, (index, t) -> {
                LockedQueue q = LockedQueue.attach(new LockContext(t, LockOptions.defaults()
                        .withAcquireTimeout(Duration.ofMillis(300))), root, ELEMENTS);
                assertThrows(LockTimeoutException.class, () -> q.enqueue(index),
                        "no locked operation completes while the holder is frozen");
                timedOut.incrementAndGet();
                try (NeverReclaimer reclaimer = new NeverReclaimer(t)) {
                    WaitFreeQueue w = WaitFreeQueue.attach(t, reclaimer, queuePtr);
                    for (int i = 0; i < OPS; i++) {
                        long before = t.roundTrips();
                        long alloc = w.object().allocatorRoundTrips();
                        if (i % 2 == 0) {
                            assertTrue(w.enqueue(index * 1000L + i));
                        } else {
                            assertTrue(w.dequeue());
                        }
                        assertTrue(t.roundTrips() - before - (w.object().allocatorRoundTrips() - alloc) <= 6,
                                "a wait-free call within its bound while the lock holder is frozen");
                        waitFreeDone.incrementAndGet();
                    }
                }
            });
            assertTrue(freeze.isFrozen(), "the holder stayed frozen throughout");
            assertEquals(NODES.length, timedOut.get(), "every thread, local and remote, timed out on the lock");
            assertEquals(NODES.length * OPS, waitFreeDone.get(), "every wait-free operation completed meanwhile");
            freeze.release();
            assertTrue(holderDone.get(WAIT.toSeconds(), TimeUnit.SECONDS), "released, the holder finishes its critical section");
            assertFalse(freeze.expired());
        }
    }
}
