package io.remus.alock;

import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.error.ThreadConfinementException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link Lock} must do, on every fabric: mutual exclusion under stress, and typed errors for bad use
 * (unlock without holding, reentrant lock, unlock by a non-owner, use from another Java thread, use after the
 * compute thread closed, a wait that runs out, a misaligned word). One subclass per implementation names its
 * {@link #kinds()} and holds the cases only that implementation has; its {@code ...OnVerbsTest} subclass runs
 * them all on a device by overriding {@link #fabrics()}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LockContractTest {
    /** {@return the lock kinds of the implementation under test} */
    protected abstract Stream<LockKind> kinds();

    /** {@return the fabrics every case runs on: the simulator; a device in the verbs twins} */
    protected Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    Stream<Arguments> fabricsAndKinds() {
        return fabrics().flatMap(f -> kinds().map(k -> Arguments.of(f, k)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    protected void shouldNeverOverlapWhenLocalAndRemoteThreadsContend(Function<SimOptions, Fabric> make, LockKind kind) throws Exception {
        // NIC atomics that take a while between their load and their store, as a device's do: a lock that changes
        // its word by anything but atomics loses that change now and then (RdmaSpinLock's release by WRITE did)
        contend(make, kind, SimOptions.defaults().withYieldInsideNicAtomics(true), new int[] {1, 1, 0, 2, 2});
    }

    /**
     * Soft-RoCE stores an 8-byte RDMA WRITE in pieces, and a CPU that reads the word meanwhile sees half of it
     * (softroce/README.md). A queue lock whose waiter linked itself into its predecessor's queue node by WRITE
     * let the predecessor, polling that word with a CPU read, follow half a pointer.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    protected void shouldNeverOverlapWhenRdmaWritesLandInHalves(Function<SimOptions, Fabric> make, LockKind kind) throws Exception {
        contend(make, kind, SimOptions.defaults().withTearWords(true).withYieldWhileTearing(true),
                new int[] {1, 0, 2, 2, 0, 1});
    }

    /**
     * Threads on {@code nodes} (of 3, the lock homed on node 1) each lock and unlock 150 times around a checked
     * critical section: no overlap, no lost increment, and the lock word free at the end.
     */
    private static void contend(Function<SimOptions, Fabric> make, LockKind kind, SimOptions sim, int[] nodes)
            throws Exception {
        int rounds = 150;
        try (TestCluster c = LockClusters.start(make, sim, 3, 2)) {
            long word = LockClusters.lockWord(c, 1);
            CheckedCriticalSection cs = new CheckedCriticalSection(c.block(2, 8 * (CheckedCriticalSection.STAMPS + 1)));
            LockOptions options = LockOptions.defaults().withBudgets(3, 2);
            c.runOnThreads(nodes, (i, t) -> {
                LockContext ctx = new LockContext(t, options);
                Lock lock = kind.open(ctx, word);
                for (int r = 0; r < rounds; r++) {
                    lock.lock();
                    assertTrue(lock.isHeld());
                    cs.run(t, ctx.ownerId());
                    lock.unlock();
                }
            });
            try (ComputeThread t = c.thread(0)) {
                assertEquals(0, cs.overlaps(), "threads overlapped in the critical section");
                assertEquals((long) nodes.length * rounds, cs.counter(t), "an increment inside the lock was lost");
            }
            assertEquals(0, c.raw(word, LockWord.SIZE).asByteBuffer().getLong(0), "word 0 is free again");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    protected void shouldReleaseTheLockWhenATryWithResourcesBlockEnds(Function<SimOptions, Fabric> make, LockKind kind) {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 1); ComputeThread t = c.thread(1)) {
            long word = LockClusters.lockWord(c, 1);
            Lock lock = kind.open(new LockContext(t, LockOptions.defaults()), word);
            try (Lock.Held held = lock.acquire()) {
                assertTrue(lock.isHeld(), "held inside the block");
            }
            assertFalse(lock.isHeld(), "the block's end released it");
            IllegalStateException inside = assertThrows(IllegalStateException.class, () -> {
                try (Lock.Held held = lock.acquire()) {
                    throw new IllegalStateException("inside the block");
                }
            });
            assertEquals("inside the block", inside.getMessage());
            assertFalse(lock.isHeld(), "a block that throws releases it too");
            Lock.Held again = lock.acquire();
            again.close();
            assertThrows(LockUsageException.class, again::close, "a second close is an unlock without holding");
            assertEquals(0, c.raw(word, LockWord.SIZE).asByteBuffer().getLong(0), "the word is free again");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    protected void shouldThrowLockUsageExceptionWhenUnlockedWithoutHoldingOrTwice(Function<SimOptions, Fabric> make, LockKind kind) {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 1); ComputeThread t = c.thread(1)) {
            long word = LockClusters.lockWord(c, 1);
            Lock lock = kind.open(new LockContext(t, LockOptions.defaults()), word);
            assertThrows(LockUsageException.class, lock::unlock, "never locked");
            lock.lock();
            assertThrows(LockUsageException.class, lock::lock, "not reentrant");
            lock.unlock();
            assertFalse(lock.isHeld());
            assertThrows(LockUsageException.class, lock::unlock, "double unlock");
            lock.lock();
            lock.unlock();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    protected void shouldThrowLockUsageExceptionWhenANonOwnerUnlocks(Function<SimOptions, Fabric> make, LockKind kind) throws Exception {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 2)) {
            long word = LockClusters.lockWord(c, 0);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch tried = new CountDownLatch(1);
            c.runOnThreads(new int[] {0, 1}, (i, t) -> {
                Lock lock = kind.open(new LockContext(t, LockOptions.defaults()), word);
                if (i == 0) {
                    lock.lock();
                    held.countDown();
                    assertTrue(tried.await(10, TimeUnit.SECONDS));
                    lock.unlock();
                } else {
                    assertTrue(held.await(10, TimeUnit.SECONDS));
                    assertThrows(LockUsageException.class, lock::unlock, "the other thread holds it");
                    tried.countDown();
                    lock.lock();
                    lock.unlock();
                }
            });
        }
    }

    /**
     * A handle used from a Java thread other than its compute thread's owner is refused before it
     * changes anything, on the CPU-only path of ALock's home-node handles as well (node 0 is the
     * home node here), and the owner keeps using it.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    protected void shouldRefuseAHandleUsedFromAnotherJavaThread(Function<SimOptions, Fabric> make, LockKind kind) throws Exception {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 1); ComputeThread t = c.thread(0)) {
            long word = LockClusters.lockWord(c, 0);
            Lock lock = kind.open(new LockContext(t, LockOptions.defaults()), word);
            lock.lock();
            for (Runnable misuse : new Runnable[] {lock::unlock, lock::lock}) {
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Thread intruder = Thread.ofPlatform().name("intruder").start(() -> {
                    try {
                        misuse.run();
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                });
                intruder.join(10_000);
                assertTrue(failure.get() instanceof ThreadConfinementException, String.valueOf(failure.get()));
                assertTrue(failure.get().getMessage().contains("\"intruder\""), failure.get().getMessage());
                assertTrue(lock.isHeld(), "the refused call changed nothing");
            }
            lock.unlock();
            lock.lock();
            lock.unlock();
            assertFalse(lock.isHeld());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    protected void shouldThrowLockUsageExceptionWhenTheComputeThreadIsClosed(Function<SimOptions, Fabric> make, LockKind kind) {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 1)) {
            long word = LockClusters.lockWord(c, 0);
            ComputeThread t = c.thread(0);
            Lock lock = kind.open(new LockContext(t, LockOptions.defaults()), word);
            t.close();
            assertThrows(LockUsageException.class, lock::lock);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    protected void shouldThrowLockTimeoutExceptionWhenTheHolderNeverReleases(Function<SimOptions, Fabric> make, LockKind kind) throws Exception {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 2)) {
            long word = LockClusters.lockWord(c, 0);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch timedOut = new CountDownLatch(1);
            LockOptions quick = LockOptions.defaults().withAcquireTimeout(Duration.ofMillis(200));
            c.runOnThreads(new int[] {0, 1}, (i, t) -> {
                Lock lock = kind.open(new LockContext(t, quick), word);
                if (i == 0) {
                    lock.lock();
                    held.countDown();
                    assertTrue(timedOut.await(10, TimeUnit.SECONDS));
                } else {
                    assertTrue(held.await(10, TimeUnit.SECONDS));
                    assertThrows(LockTimeoutException.class, lock::lock);
                    timedOut.countDown();
                }
            });
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    protected void shouldRejectAMisalignedWordWhenOpened(Function<SimOptions, Fabric> make, LockKind kind) {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 1); ComputeThread t = c.thread(0)) {
            long word = LockClusters.lockWord(c, 1);
            LockContext ctx = new LockContext(t, LockOptions.defaults());
            assertThrows(io.remus.core.error.BadArgumentException.class, () -> kind.open(ctx, io.remus.core.memory.RemotePtr.offset(word, 8)));
            assertThrows(io.remus.core.error.BadArgumentException.class, () -> kind.open(ctx, 0));
        }
    }
}
