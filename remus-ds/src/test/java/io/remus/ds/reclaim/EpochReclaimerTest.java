package io.remus.ds.reclaim;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.config.NodeRange;
import io.remus.core.config.Timeouts;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.BlockHeader;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link EpochReclaimer} step by step, its reclaimers interleaved on one Java thread (each compute
 * thread is confined to it) so that every step is deterministic; the clock is the test's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EpochReclaimerTest {
    private static final int BYTES = 32;
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final EpochOptions options = EpochOptions.defaults().withLease(Duration.ofMillis(100)).withClockSkew(Duration.ofMillis(10))
            .withBytes(1 << 20, 1 << 20).withClock(clock::get);

    private static TestCluster cluster(int nodes) {
        return new TestCluster(SimFabric::new, SimOptions.defaults().withPoisonFreedBlocks(true), nodes, b -> { });
    }

    private static boolean isFree(ComputeThread t, long block) {
        return BlockHeader.state(t.read(BlockHeader.address(block))) == BlockHeader.FREE;
    }

    private static void passes(Reclaimer r, int n) {
        for (int i = 0; i < n; i++) {
            r.reclaim();
        }
    }

    @Test
    void shouldFreeARetiredBlockOnlyAfterEveryOpenGuardClosed() {
        try (TestCluster c = cluster(3); ComputeThread ta = c.thread(0); ComputeThread tb = c.thread(1)) {
            RemoteAllocator alloc = new RemoteAllocator(ta);
            EpochReclaimer a = new EpochReclaimer(ta, alloc, options);
            EpochReclaimer b = new EpochReclaimer(tb, new RemoteAllocator(tb), options);
            long p = alloc.allocate(BYTES, 2);
            Guard held = b.enter();
            try (Guard g = a.enter()) {
                a.retire(p, BYTES);
            }
            assertEquals(BYTES, a.unreclaimedBytes());
            passes(a, 10);
            assertFalse(isFree(ta, p), "a guard opened before the retire is still open");
            assertTrue(a.advances() <= 1, "the open guard lets the epoch advance at most once, got " + a.advances());
            assertTrue(held.valid());
            held.close();
            passes(a, 3);
            assertTrue(isFree(ta, p), "freed once the guard closed and the epoch advanced");
            assertEquals(0, a.unreclaimedBytes());
            assertEquals(BYTES, a.retiredBytes());
            a.close();
            b.close();
        }
    }

    @Test
    void shouldStopWaitingForAGuardWhoseLeaseRanOut() {
        try (TestCluster c = cluster(2); ComputeThread ta = c.thread(0); ComputeThread tb = c.thread(1)) {
            RemoteAllocator alloc = new RemoteAllocator(ta);
            EpochReclaimer a = new EpochReclaimer(ta, alloc, options);
            EpochReclaimer b = new EpochReclaimer(tb, new RemoteAllocator(tb), options);
            long p = alloc.allocate(BYTES, 1);
            Guard stalled = b.enter();
            long incarnation = stalled.incarnation(p);
            assertTrue(stalled.validate(p, incarnation));
            try (Guard g = a.enter()) {
                a.retire(p, BYTES);
            }
            passes(a, 5);
            assertFalse(isFree(ta, p));
            clock.addAndGet(100);
            assertTrue(stalled.valid(), "on its own clock the lease holds up to its deadline");
            clock.addAndGet(1);
            assertFalse(stalled.valid());
            assertThrows(LeaseExpiredException.class, stalled::check);
            clock.addAndGet(9);
            passes(a, 5);
            assertFalse(isFree(ta, p), "other threads count the lease as run out only the clock skew after its deadline");
            clock.addAndGet(1);
            passes(a, 5);
            assertTrue(isFree(ta, p), "a stalled guard whose lease ran out no longer holds the epoch back");
            assertFalse(stalled.validate(p, incarnation), "the stalled thread sees by incarnation that the block was freed");
            assertEquals(-1, stalled.incarnation(p));
            stalled.close();
            try (Guard g = b.enter()) {
                assertTrue(g.valid(), "entering again renews the lease");
            }
        }
    }

    @Test
    void shouldKeepHoldingBackWhileAGuardRenewsItsLeaseInTime() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults().withPoisonFreedBlocks(true), 3,
                b -> b.memoryNodes(new NodeRange(0, 1)));
             ComputeThread ta = c.thread(0); ComputeThread tc = c.thread(2)) {
            RemoteAllocator alloc = new RemoteAllocator(ta);
            EpochReclaimer a = new EpochReclaimer(ta, alloc, options);
            EpochReclaimer waiting = new EpochReclaimer(tc, new RemoteAllocator(tc), options);
            long p = alloc.allocate(BYTES, 1);
            Guard g = waiting.enter();
            try (Guard r = a.enter()) {
                a.retire(p, BYTES);
            }
            for (int step = 0; step < 5; step++) {
                clock.addAndGet(80);
                Map<Opcode, Long> before = counts(tc);
                assertTrue(g.renewLease(), "renewed while the lease held, step " + step);
                assertEquals(before.get(Opcode.COMPARE_AND_SWAP) + 1, counts(tc).get(Opcode.COMPARE_AND_SWAP),
                        "a compute-only node renews with one compare-and-swap");
                passes(a, 3);
                assertFalse(isFree(ta, p), "held back past the first lease's deadline, step " + step);
                assertTrue(g.valid());
            }
            assertEquals(5, waiting.renewals());
            clock.addAndGet(111);
            assertFalse(g.renewLease(), "too late: the lease ran out");
            passes(a, 5);
            assertTrue(isFree(ta, p), "a lease no longer renewed runs out");
            g.close();
        }
    }

    @Test
    void shouldRenewNothingWhenTheRenewalLandsAfterTheLeaseRanOut() {
        AtomicLong step = new AtomicLong();
        EpochOptions stepping = options.withClock(() -> clock.getAndAdd(step.get()));
        try (TestCluster c = cluster(2); ComputeThread ta = c.thread(0); ComputeThread tb = c.thread(1)) {
            RemoteAllocator alloc = new RemoteAllocator(ta);
            EpochReclaimer a = new EpochReclaimer(ta, alloc, options);
            EpochReclaimer b = new EpochReclaimer(tb, new RemoteAllocator(tb), stepping);
            long p = alloc.allocate(BYTES, 1);
            Guard g = b.enter();
            try (Guard r = a.enter()) {
                a.retire(p, BYTES);
            }
            clock.addAndGet(99);
            step.set(1); // each read of b's clock moves it on: the renewal's store completes at the old deadline + 1
            assertFalse(g.renewLease(), "the store completed after the old deadline");
            step.set(0);
            assertFalse(g.valid(), "the guard keeps its old, run out, lease");
            assertEquals(0, b.renewals());
            clock.addAndGet(11);
            passes(a, 5);
            assertTrue(isFree(ta, p), "the old deadline was announced again: the lease counts as run out");
            g.close();
        }
    }

    @Test
    void shouldHoldBackForEverWithPlainEpochs() {
        EpochOptions plain = options.withLease(Timeouts.FOREVER);
        try (TestCluster c = cluster(2); ComputeThread ta = c.thread(0); ComputeThread tb = c.thread(1)) {
            RemoteAllocator alloc = new RemoteAllocator(ta);
            EpochReclaimer a = new EpochReclaimer(ta, alloc, plain);
            EpochReclaimer b = new EpochReclaimer(tb, new RemoteAllocator(tb), plain);
            long p = alloc.allocate(BYTES, 1);
            Guard stalled = b.enter();
            try (Guard g = a.enter()) {
                a.retire(p, BYTES);
            }
            clock.addAndGet(Duration.ofDays(3650).toMillis());
            passes(a, 10);
            assertFalse(isFree(ta, p));
            assertTrue(stalled.valid());
            stalled.close();
            passes(a, 3);
            assertTrue(isFree(ta, p));
        }
    }

    @Test
    void shouldEnterAndCloseWithoutRdmaOperationsOnAMemoryNode() {
        try (TestCluster c = cluster(2); ComputeThread t = c.thread(1)) {
            EpochReclaimer r = new EpochReclaimer(t, new RemoteAllocator(t), options);
            Map<Opcode, Long> before = counts(t);
            for (int i = 0; i < 100; i++) {
                try (Guard g = r.enter()) {
                    assertTrue(g.valid());
                }
            }
            assertEquals(before, counts(t), "enter and close are CPU loads and stores of the node's own table");
        }
    }

    @Test
    void shouldPassWithTwoReadsPerRemoteTableAndAdvanceWithOneCasPerTable() {
        try (TestCluster c = cluster(3); ComputeThread t0 = c.thread(0); ComputeThread t1 = c.thread(1); ComputeThread t2 = c.thread(2)) {
            new EpochReclaimer(t0, new RemoteAllocator(t0), options);
            new EpochReclaimer(t2, new RemoteAllocator(t2), options);
            EpochReclaimer r = new EpochReclaimer(t1, new RemoteAllocator(t1), options);
            r.reclaim();
            long epoch = r.globalEpoch();
            Map<Opcode, Long> before = counts(t1);
            r.reclaim();
            Map<Opcode, Long> after = counts(t1);
            assertEquals(epoch + 1, r.globalEpoch(), "no guard is open: the pass advances");
            assertEquals(before.get(Opcode.READ) + 2 + 2 * 2, after.get(Opcode.READ),
                    "the global epoch, node 0's and node 2's tables, twice each (node 1's own is read by the CPU)");
            assertEquals(before.get(Opcode.COMPARE_AND_SWAP) + 1 + 3, after.get(Opcode.COMPARE_AND_SWAP),
                    "the global epoch, then the hint of each of the three tables");
            assertEquals(before.get(Opcode.WRITE), after.get(Opcode.WRITE));
        }
    }

    @Test
    void shouldAnnounceInAMemoryNodesTableFromAComputeOnlyNode() {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> b.memoryNodes(new NodeRange(0, 1)));
             ComputeThread ta = c.thread(0); ComputeThread tc = c.thread(2)) {
            RemoteAllocator alloc = new RemoteAllocator(ta);
            EpochReclaimer a = new EpochReclaimer(ta, alloc, options);
            EpochReclaimer computeOnly = new EpochReclaimer(tc, new RemoteAllocator(tc), options);
            Map<Opcode, Long> before = counts(tc);
            Guard held = computeOnly.enter();
            Map<Opcode, Long> after = counts(tc);
            assertEquals(before.get(Opcode.READ) + 2, after.get(Opcode.READ), "two READs of the hint");
            assertEquals(before.get(Opcode.COMPARE_AND_SWAP) + 1, after.get(Opcode.COMPARE_AND_SWAP), "one CAS announces");
            long p = alloc.allocate(BYTES, 1);
            try (Guard g = a.enter()) {
                a.retire(p, BYTES);
            }
            passes(a, 5);
            assertFalse(isFree(ta, p), "the compute-only node's guard holds the epoch back");
            held.close();
            passes(a, 3);
            assertTrue(isFree(ta, p));
        }
    }

    @Test
    void shouldGiveItsSlotBackWhenClosed() {
        EpochOptions two = options.withSlots(2);
        try (TestCluster c = cluster(2); ComputeThread t = c.thread(0)) {
            RemoteAllocator alloc = new RemoteAllocator(t);
            EpochReclaimer first = new EpochReclaimer(t, alloc, two);
            EpochReclaimer second = new EpochReclaimer(t, alloc, two);
            AllocationExhaustedException full = assertThrows(AllocationExhaustedException.class, () -> new EpochReclaimer(t, alloc, two));
            assertTrue(full.getMessage().contains("no free slot of its 2"), full.getMessage());
            first.close();
            new EpochReclaimer(t, alloc, two).close();
            second.close();
        }
    }

    @Test
    void shouldNestGuardsAndRefuseReclaimInsideOne() {
        try (TestCluster c = cluster(2); ComputeThread t = c.thread(0)) {
            EpochReclaimer r = new EpochReclaimer(t, new RemoteAllocator(t), options);
            Guard outer = r.enter();
            Guard inner = r.enter();
            assertSame(outer, inner);
            inner.close();
            assertTrue(outer.valid(), "the outer guard stays open");
            assertThrows(BadArgumentException.class, r::reclaim);
            assertThrows(BadArgumentException.class, r::close);
            outer.close();
            assertFalse(outer.valid(), "a closed guard protects nothing");
            assertThrows(BadArgumentException.class, outer::close);
            assertThrows(BadArgumentException.class, () -> r.retire(0, BYTES));
            assertThrows(BadArgumentException.class, () -> r.retire(t.segmentBase(0, 0), 0));
            r.close();
            r.close();
            assertThrows(BadArgumentException.class, r::enter);
            assertThrows(BadArgumentException.class, r::reclaim);
            assertThrows(BadArgumentException.class, () -> r.retire(t.segmentBase(1, 0), BYTES));
        }
    }

    /**
     * Given only the thread (and options), the reclaimer frees into the thread's own allocator: a block it freed
     * lands in that allocator's cache. Null arguments are refused by name before anything is claimed.
     */
    @Test
    void shouldFreeIntoTheThreadsOwnAllocatorWhenGivenOnlyTheThread() {
        try (TestCluster c = cluster(2); ComputeThread t = c.thread(0)) {
            assertEquals("thread", assertThrows(NullPointerException.class, () -> new EpochReclaimer(null)).getMessage());
            assertEquals("thread", assertThrows(NullPointerException.class, () -> new EpochReclaimer(null, options)).getMessage());
            assertEquals("options", assertThrows(NullPointerException.class,
                    () -> new EpochReclaimer(t, (EpochOptions) null)).getMessage());
            RemoteAllocator own = t.allocator();
            try (EpochReclaimer r = new EpochReclaimer(t, options)) {
                assertSame(options, r.options());
                long p = own.allocate(BYTES, 1);
                int cached = own.cachedBlockCount();
                r.retire(p, BYTES);
                passes(r, 3);
                assertTrue(isFree(t, p));
                assertEquals(0, r.unreclaimedBytes());
                assertEquals(cached + 1, own.cachedBlockCount(), "freed into the thread's allocator");
            }
            try (EpochReclaimer r = new EpochReclaimer(t)) {
                assertEquals(EpochOptions.defaults().lease(), r.options().lease());
                assertEquals(EpochOptions.defaults().slots(), r.options().slots());
                long p = own.allocate(BYTES, 1);
                int cached = own.cachedBlockCount();
                r.retire(p, BYTES);
                passes(r, 3);
                assertTrue(isFree(t, p));
                assertEquals(cached + 1, own.cachedBlockCount(), "freed into the thread's allocator");
            }
        }
    }

    private static Map<Opcode, Long> counts(ComputeThread t) {
        Map<Opcode, Long> m = new EnumMap<>(Opcode.class);
        for (Opcode op : Opcode.values()) {
            m.put(op, t.postedOperations(op));
        }
        return m;
    }
}
