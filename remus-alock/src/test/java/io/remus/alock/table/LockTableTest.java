package io.remus.alock.table;

import io.remus.alock.LockClusters;
import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.LockUsageException;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockTableTest {
    static Stream<Arguments> fabricsAndKinds() {
        return Fabrics.all().flatMap(f -> Stream.of(LockKind.values()).map(k -> Arguments.of(f, k)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    void shouldSpreadLocksOverMemoryNodesAndMapKeysModuloSize(Function<SimOptions, Fabric> make, LockKind kind) {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 3, 1); ComputeThread t = c.thread(0)) {
            LockTable table = LockTable.create(t, kind, 7);
            for (int i = 0; i < 7; i++) {
                assertEquals(i % 3, table.homeNode(i));
                assertEquals(0, RemotePtr.address(table.word(i)) & 63, "64-byte aligned");
            }
            assertEquals(2, table.indexOf(9));
            assertEquals(6, table.indexOf(-1));
            assertThrows(BadArgumentException.class, () -> table.word(7));
            assertThrows(BadArgumentException.class, () -> LockTable.create(t, kind, 0));
            assertThrows(BadArgumentException.class, () -> LockTable.of(kind, new long[] {RemotePtr.of(1, 72)}));
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    void shouldHoldSeveralKeysAtOnceUpToTheLimitWhenKeysMapToDifferentLocks(Function<SimOptions, Fabric> make, LockKind kind) {
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 2, 1); ComputeThread t = c.thread(0)) {
            LockTable table = LockTable.create(t, kind, 8);
            TableLocks locks = table.open(new LockContext(t, LockOptions.defaults().withMaxHeldLocks(2)));
            locks.lock(1);
            locks.lock(2);
            assertTrue(locks.isHeld(1) && locks.isHeld(2));
            assertFalse(locks.isHeld(3));
            if (kind != LockKind.SPIN) {
                assertThrows(LockUsageException.class, () -> locks.lock(3), "a third queue node is not available");
            }
            assertThrows(LockUsageException.class, () -> locks.lock(9), "key 9 maps to lock 1, already held");
            locks.unlock(2);
            locks.unlock(1);
            locks.lock(3);
            locks.unlock(3);
            assertThrows(LockUsageException.class, () -> locks.unlock(3));
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabricsAndKinds")
    void shouldExcludePerKeyWhenThreadsOfAllNodesLockRandomKeys(Function<SimOptions, Fabric> make, LockKind kind) throws Exception {
        int keys = 6;
        int rounds = 200;
        try (TestCluster c = LockClusters.start(make, SimOptions.defaults(), 3, 2)) {
            LockTable table;
            try (ComputeThread t = c.thread(0)) {
                table = LockTable.create(t, kind, keys);
            }
            AtomicIntegerArray inside = new AtomicIntegerArray(keys);
            AtomicLong overlaps = new AtomicLong();
            long[] counts = new long[keys];
            c.runOnThreads(new int[] {0, 1, 1, 2}, (i, t) -> {
                TableLocks locks = table.open(new LockContext(t, LockOptions.defaults().withBudgets(2, 2)));
                java.util.SplittableRandom random = new java.util.SplittableRandom(i);
                for (int r = 0; r < rounds; r++) {
                    int key = random.nextInt(keys);
                    locks.lock(key);
                    if (inside.incrementAndGet(key) != 1) {
                        overlaps.incrementAndGet();
                    }
                    long seen = counts[key];
                    Thread.yield();
                    counts[key] = seen + 1;
                    inside.decrementAndGet(key);
                    locks.unlock(key);
                }
            });
            assertEquals(0, overlaps.get());
            long total = 0;
            for (long n : counts) {
                total += n;
            }
            assertEquals(4L * rounds, total, "no increment under a key's lock was lost");
        }
    }
}
