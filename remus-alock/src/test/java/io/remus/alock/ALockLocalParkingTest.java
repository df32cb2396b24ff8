package io.remus.alock;

import io.remus.alock.asymmetric.ALock;
import io.remus.alock.asymmetric.ALockWord;
import io.remus.alock.kind.LockKind;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ALock's local-cohort waiters with {@link LockKind#ALOCK_PARKING}: they park after
 * {@link ALock#SPINS_BEFORE_PARKING} pauses and their predecessor's hand-over wakes them, and the deadline
 * still bounds a parked wait; {@link LockKind#ALOCK}'s never park.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ALockLocalParkingTest {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final int HOME = 1;
    private static final int WAITERS = 3;

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /** Whether {@code t} is parked inside a lock wait ({@link SpinBound#park}). */
    private static boolean parkedInLock(Thread t) {
        return LockSupport.getBlocker(t) instanceof SpinBound;
    }

    /**
     * A holder on the home node keeps the lock until every waiter of its cohort has queued and been seen
     * parked ({@code expectParking}) or has been watched for 300 ms without ever parking; then each waiter
     * enters in turn. Returns how many waiters were seen parked.
     */
    private static int waitersSeenParked(Function<SimOptions, Fabric> make, LockKind kind, boolean expectParking)
            throws Exception {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, WAITERS + 1)) {
            long word = LockClusters.lockWord(c, HOME);
            MemorySegment raw = c.raw(word, 64);
            List<Thread> waiters = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch held = new CountDownLatch(1);
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger entries = new AtomicInteger();
            AtomicInteger seenParked = new AtomicInteger();
            int[] nodes = new int[WAITERS + 1];
            Arrays.fill(nodes, HOME);
            c.runOnThreads(nodes, (i, t) -> {
                Lock lock = kind.open(new LockContext(t, LockOptions.defaults()), word);
                assertTrue(((ALock) lock).isLocal());
                if (i == 0) {
                    lock.lock();
                    long holderTail = (long) WORD.getVolatile(raw, ALockWord.L_TAIL);
                    held.countDown();
                    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    while ((waiters.size() < WAITERS || (long) WORD.getVolatile(raw, ALockWord.L_TAIL) == holderTail)
                            && System.nanoTime() < giveUp) {
                        Thread.onSpinWait();
                    }
                    long watchUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                    boolean[] parked = new boolean[WAITERS];
                    int seen = 0;
                    while (expectParking ? seen < WAITERS && System.nanoTime() < giveUp : System.nanoTime() < watchUntil) {
                        for (int w = 0; w < WAITERS; w++) {
                            if (!parked[w] && parkedInLock(waiters.get(w))) {
                                parked[w] = true;
                                seen++;
                            }
                        }
                        Thread.onSpinWait();
                    }
                    seenParked.set(seen);
                    lock.unlock();
                    return;
                }
                held.await();
                waiters.add(Thread.currentThread());
                lock.lock();
                assertEquals(1, inside.incrementAndGet(), "mutual exclusion");
                entries.incrementAndGet();
                inside.decrementAndGet();
                lock.unlock();
            });
            assertEquals(WAITERS, entries.get(), "every waiter entered once the holder let go");
            assertEquals(0L, (long) WORD.getVolatile(raw, ALockWord.L_TAIL), "the queue is empty again");
            return seenParked.get();
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldParkLocalWaitersAndWakeEachByItsHandOver(Function<SimOptions, Fabric> make) throws Exception {
        assertEquals(WAITERS, waitersSeenParked(make, LockKind.ALOCK_PARKING, true));
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldNeverParkWhenTheLockIsThePlainKind(Function<SimOptions, Fabric> make) throws Exception {
        assertEquals(0, waitersSeenParked(make, LockKind.ALOCK, false));
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFailAParkedWaiterAtItsDeadlineWhenTheHolderNeverLetsGo(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 2)) {
            long word = LockClusters.lockWord(c, HOME);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch waiterDone = new CountDownLatch(1);
            AtomicInteger parkedSeen = new AtomicInteger();
            List<Thread> waiter = Collections.synchronizedList(new ArrayList<>());
            c.runOnThreads(new int[] {HOME, HOME}, (i, t) -> {
                if (i == 0) {
                    Lock lock = LockKind.ALOCK_PARKING.open(new LockContext(t, LockOptions.defaults()), word);
                    lock.lock();
                    held.countDown();
                    while (waiterDone.getCount() > 0) {
                        if (!waiter.isEmpty() && parkedInLock(waiter.getFirst())) {
                            parkedSeen.set(1);
                        }
                        Thread.onSpinWait();
                    }
                    lock.unlock();
                    return;
                }
                LockOptions quick = LockOptions.defaults().withAcquireTimeout(Duration.ofMillis(300));
                Lock lock = LockKind.ALOCK_PARKING.open(new LockContext(t, quick), word);
                held.await();
                waiter.add(Thread.currentThread());
                try {
                    LockTimeoutException e = assertThrows(LockTimeoutException.class, lock::lock);
                    assertTrue(e.getMessage().contains("local hand-over"), e.getMessage());
                } finally {
                    waiterDone.countDown();
                }
            });
            assertEquals(1, parkedSeen.get(), "the waiter parked before its deadline ended the wait");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepMutualExclusionWhenManyLocalThreadsParkAndWake(Function<SimOptions, Fabric> make) throws Exception {
        int threads = 6;
        int rounds = 200;
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, threads)) {
            long word = LockClusters.lockWord(c, HOME);
            AtomicInteger inside = new AtomicInteger();
            long[] counter = new long[1];
            int[] nodes = new int[threads];
            Arrays.fill(nodes, HOME);
            c.runOnThreads(nodes, (i, t) -> {
                Lock lock = LockKind.ALOCK_PARKING.open(new LockContext(t, LockOptions.defaults()), word);
                for (int r = 0; r < rounds; r++) {
                    lock.lock();
                    assertEquals(1, inside.incrementAndGet(), "mutual exclusion");
                    counter[0]++;
                    // hold long enough that the queued waiters spin past their limit and park
                    long until = System.nanoTime() + 20_000;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    inside.decrementAndGet();
                    lock.unlock();
                }
            });
            assertEquals((long) threads * rounds, counter[0]);
        }
    }
}
