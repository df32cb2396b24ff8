package io.remus.ds.cluster;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.HistoryClock;
import io.remus.check.HistoryJournal;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Specification;
import io.remus.check.Verdict;
import io.remus.check.spec.MapSpec;
import io.remus.check.spec.SetSpec;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.object.BoundedContainerSpec;
import io.remus.ds.queue.MpmcBoundedQueue;
import io.remus.ds.queue.QueueTimeoutException;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.set.LockFreeListSet;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator's counterpart of {@link StructuresKilledProcessOnVerbsTest}: one thread is abandoned in the
 * middle of an operation ({@link SimFabric#freeze}, before its next work request after its first
 * compare-and-swap: a lock-free list remove after its mark, a hash-map put of a new key after its first
 * compare-and-swap (its allocator's or its claim), a queue offer after its tail claim, before its value) and
 * stays frozen while the others work, as a killed process's
 * thread would; its invocation is journaled ({@link HistoryJournal}) with no response, so the merged history
 * holds it pending. The live threads, on two other nodes, each complete {@value #OPS} seeded random operations
 * on the structure, journaled; on the queue a call that times out behind the frozen claim (documented:
 * blocking on a stalled claim holder, no effect) is journaled as voided. Checked, while the thread is still
 * frozen: the merged history is linearizable (the sets key by key, the map key by key, the queue whole) with
 * the operation pending, the live threads' epoch reclaimers advanced the global epoch (for the list and the map although
 * the frozen thread sits in a guard: its lease ran out), and a sweep (contains of every key; the queue's polls until
 * empty or blocked) completes; for the queue, the same history without the pending offer is caught as not
 * linearizable (the offers that found the queue full counted its claimed slot). The frozen thread is released only to end the test. Each structure runs
 * {@value #SEEDS} seeds of the live threads' operations, on the simulator with torn READs and WRITEs and yields
 * inside writes and NIC atomics.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AbandonedOperationTest {
    private static final int HOME = 1;
    private static final int SEEDS = 3;
    /** Torn READs and WRITEs, and yields inside writes and NIC atomics (WaitFreeContainerTestBase's hostile preset). */
    private static final SimOptions HOSTILE = SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true)
            .withYieldInsideNicAtomics(true);
    private static final int OPS = 60;
    private static final int KEYS = 3;
    private static final int CAPACITY = 3;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration MAX_FROZEN = Duration.ofSeconds(50);
    private static final Duration PATIENCE = Duration.ofMillis(20);
    private static final Duration LEASE = Duration.ofMillis(200);
    private static final EpochOptions EPOCH = EpochOptions.defaults().withLease(LEASE).withBytes(1024, 1 << 20);
    /** The key, or the value, of the abandoned operation. */
    private static final long ABANDONED = 2;
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));

    /** A structure under test: how to create it, the abandoned call, a live call and how to check it. */
    enum Kind {
        LOCK_FREE_LIST, HASH_MAP, QUEUE
    }

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return Arrays.stream(Kind.values()).flatMap(k -> LongStream.rangeClosed(1, SEEDS).mapToObj(seed -> Arguments.of(k, seed)));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void shouldStayLinearizableWithTheAbandonedOperationPendingWhenAThreadIsFrozenForGoodMidOperation(Kind kind, long seed)
            throws Exception {
        try (TestCluster c = new TestCluster(SimFabric::new, HOSTILE, 3, b -> { })) {
            long ptr = create(c, kind);
            Path victimJournal = dir.resolve(kind + "-" + seed + "-1.journal");
            Path liveJournal = dir.resolve(kind + "-" + seed + "-0.journal");
            CountDownLatch ready = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            CompletableFuture<Void> done = new CompletableFuture<>();
            Thread victim = new Thread(() -> {
                try (ComputeThread t = c.thread(0); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), EPOCH);
                     HistoryJournal j = HistoryJournal.create(victimJournal, HistoryClock.EPOCH_MICROS, 1);
                     Handles h = new Handles(t, r, kind, ptr)) {
                    ready.countDown();
                    if (!go.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                        throw new AssertionError("never told to go");
                    }
                    h.abandoned(j);
                    done.complete(null);
                } catch (Throwable e) {
                    ready.countDown();
                    done.completeExceptionally(e);
                }
            }, "abandoned@node0");
            victim.setDaemon(true);
            victim.start();
            assertTrue(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            SimFreeze freeze = ((SimFabric) c.fabric()).freeze(victim, Opcode.COMPARE_AND_SWAP, 1, MAX_FROZEN);
            go.countDown();
            assertTrue(freeze.awaitFrozen(WAIT), "the abandoned call reached the work request after its first compare-and-swap");
            AtomicLong advances = new AtomicLong();
            AtomicLong voided = new AtomicLong();
            try (HistoryJournal live = HistoryJournal.create(liveJournal, HistoryClock.EPOCH_MICROS, 0)) {
                c.runOnThreads(new int[]{0, 2}, (index, t) -> {
                    try (EpochReclaimer r = new EpochReclaimer(t, t.allocator(), EPOCH); Handles h = new Handles(t, r, kind, ptr)) {
                        SplittableRandom rnd = new SplittableRandom(1_000_003L * seed + 31L * (index + 1) + kind.ordinal());
                        long before = r.advances();
                        for (int i = 0; i < OPS; i++) {
                            if (!h.live(live, index, rnd, i)) {
                                voided.incrementAndGet();
                            }
                        }
                        long deadline = System.nanoTime() + WAIT.toNanos();
                        while (r.advances() == before && System.nanoTime() - deadline < 0) {
                            r.reclaim();
                            Thread.sleep(LEASE.toMillis() / 4);
                        }
                        advances.addAndGet(r.advances() - before);
                    }
                });
                try (ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), EPOCH);
                     Handles h = new Handles(t, r, kind, ptr)) {
                    h.sweep(live, 2);
                }
            }
            assertTrue(freeze.isFrozen() && !done.isDone(), "the abandoned call stayed frozen while the others ran");
            List<Operation> history = HistoryJournal.merge(List.of(liveJournal, victimJournal));
            List<Operation> pending = history.stream().filter(Operation::isPending).toList();
            assertEquals(1, pending.size(), "the abandoned call alone is pending: " + pending);
            assertEquals(1, pending.getFirst().process());
            CheckResult result = kind == Kind.QUEUE ? CHECKER.check(history, spec(kind)) : CHECKER.checkByKey(history, spec(kind));
            assertEquals(Verdict.LINEARIZABLE, result.verdict(), kind + ": " + result);
            assertTrue(advances.get() > 0, "the live reclaimers advanced the epoch past the frozen thread's guard");
            if (kind == Kind.QUEUE) {
                assertNull(StructuresKilledProcessOnVerbsTest.queueFailure(history, "stuck"));
                assertTrue(voided.get() > 0, "some poll reached the frozen claim and timed out without effect");
                List<Operation> forgotten = history.stream().filter(o -> !o.isPending()).toList();
                assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(forgotten, spec(kind)).verdict(),
                        "without the abandoned offer, which holds a slot, the queue answered full too early: the check can fail");
            } else {
                assertEquals(0, voided.get(), kind + " is lock-free: no call waits for the frozen one");
            }
            freeze.release();
            done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertFalse(freeze.expired(), "released by the test");
        }
    }

    private static long create(TestCluster c, Kind kind) {
        try (ComputeThread t = c.thread(HOME); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), EPOCH)) {
            return switch (kind) {
                case LOCK_FREE_LIST -> {
                    LockFreeListSet s = LockFreeListSet.create(t, r, HOME);
                    assertTrue(s.insert(ABANDONED), "the abandoned remove finds its key");
                    yield s.ptr();
                }
                case HASH_MAP -> RemoteHashMap.create(t, r, HOME, 4, 16).ptr();
                case QUEUE -> MpmcBoundedQueue.create(t, CAPACITY).ptr();
            };
        }
    }

    private static Specification<?> spec(Kind kind) {
        return switch (kind) {
            case LOCK_FREE_LIST -> new SetSpec();
            case HASH_MAP -> new MapSpec();
            case QUEUE -> new BoundedContainerSpec(true, CAPACITY);
        };
    }

    private static byte[] value(long word) {
        return ByteBuffer.allocate(16).putLong(word).putLong(~word).array();
    }

    private static long[] got(byte[] v) {
        if (v == null) {
            return new long[]{0};
        }
        ByteBuffer b = ByteBuffer.wrap(v);
        return new long[]{1, v.length == 16 && b.getLong(8) == ~b.getLong(0) ? b.getLong(0) : -1};
    }

    private static long[] polled(OptionalLong v) {
        return v.isPresent() ? new long[]{v.getAsLong()} : new long[0];
    }

    /** One thread's handle of the structure under test. */
    private static final class Handles implements AutoCloseable {
        private final Kind kind;
        private final LockFreeListSet set;
        private final RemoteHashMap map;
        private final MpmcBoundedQueue queue;

        Handles(ComputeThread t, EpochReclaimer r, Kind kind, long ptr) {
            this.kind = kind;
            set = kind == Kind.LOCK_FREE_LIST ? LockFreeListSet.attach(t, r, ptr) : null;
            map = kind == Kind.HASH_MAP ? RemoteHashMap.attach(t, r, ptr) : null;
            queue = kind == Kind.QUEUE ? MpmcBoundedQueue.attach(t, ptr) : null;
        }

        /** The abandoned call: remove of a present key, put of a new key, offer to an empty queue. */
        void abandoned(HistoryJournal j) {
            switch (kind) {
                case LOCK_FREE_LIST -> j.respond(j.invoke(0, SetSpec.REMOVE, ABANDONED), set.remove(ABANDONED) ? 1 : 0);
                case HASH_MAP -> j.respond(j.invoke(0, MapSpec.PUT, ABANDONED, 99), map.put(ABANDONED, value(99)) ? 1 : 0);
                case QUEUE -> j.respond(j.invoke(0, BoundedContainerSpec.PUT, 99), queue.offer(99, WAIT) ? 1 : 0);
            }
        }

        /** One seeded random call, journaled; false when it timed out without effect (journaled as voided). */
        boolean live(HistoryJournal j, int thread, SplittableRandom rnd, int i) {
            long key = 1 + rnd.nextInt(KEYS);
            int pick = rnd.nextInt(3);
            switch (kind) {
                case LOCK_FREE_LIST -> {
                    String op = pick == 0 ? SetSpec.CONTAINS : pick == 1 ? SetSpec.ADD : SetSpec.REMOVE;
                    int id = j.invoke(thread, op, key);
                    boolean r = pick == 0 ? set.contains(key) : pick == 1 ? set.insert(key) : set.remove(key);
                    j.respond(id, r ? 1 : 0);
                }
                case HASH_MAP -> {
                    if (pick == 0) {
                        int id = j.invoke(thread, MapSpec.GET, key);
                        j.respond(id, got(map.get(key)));
                    } else if (pick == 1) {
                        long word = 1000L * (thread + 1) + i;
                        int id = j.invoke(thread, MapSpec.PUT, key, word);
                        j.respond(id, map.put(key, value(word)) ? 1 : 0);
                    } else {
                        int id = j.invoke(thread, MapSpec.REMOVE, key);
                        j.respond(id, map.remove(key) ? 1 : 0);
                    }
                }
                case QUEUE -> {
                    boolean offer = pick != 0;
                    long v = 1000L * (thread + 1) + i;
                    int id = offer ? j.invoke(thread, BoundedContainerSpec.PUT, v) : j.invoke(thread, BoundedContainerSpec.TAKE);
                    try {
                        if (offer) {
                            j.respond(id, queue.offer(v, PATIENCE) ? 1 : 0);
                        } else {
                            j.respond(id, polled(queue.poll(PATIENCE)));
                        }
                    } catch (QueueTimeoutException e) {
                        j.voided(id);
                        return false;
                    }
                }
            }
            return true;
        }

        /** Contains or get of every key; the queue's polls until empty or blocked at the frozen claim. */
        void sweep(HistoryJournal j, int thread) {
            for (long key = 1; key <= KEYS; key++) {
                switch (kind) {
                    case LOCK_FREE_LIST -> j.respond(j.invoke(thread, SetSpec.CONTAINS, key), set.contains(key) ? 1 : 0);
                    case HASH_MAP -> j.respond(j.invoke(thread, MapSpec.GET, key), got(map.get(key)));
                    case QUEUE -> {
                        int id = j.invoke(thread, BoundedContainerSpec.TAKE);
                        try {
                            OptionalLong v = queue.poll(PATIENCE);
                            j.respond(id, polled(v));
                            if (v.isEmpty()) {
                                return;
                            }
                        } catch (QueueTimeoutException e) {
                            j.voided(id);
                            return;
                        }
                    }
                }
            }
        }

        @Override
        public void close() {
            if (set != null) {
                set.close();
            }
            if (map != null) {
                map.close();
            }
            if (queue != null) {
                queue.close();
            }
        }
    }
}
