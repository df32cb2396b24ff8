package io.remus.ds;

import io.remus.check.History;
import io.remus.check.Operation;
import io.remus.check.Specification;
import io.remus.check.Verdict;
import io.remus.check.spec.CounterSpec;
import io.remus.check.spec.MapSpec;
import io.remus.check.spec.MaxRegisterSpec;
import io.remus.check.spec.RegisterSpec;
import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.sim.SimOptions;
import io.remus.core.time.ThreadTime;
import io.remus.ds.delegate.Trust;
import io.remus.ds.delegate.Trustee;
import io.remus.ds.delegate.TrusteeClient;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.object.BoundedContainerSpec;
import io.remus.ds.object.RemoteCounter;
import io.remus.ds.object.RemoteMaxRegister;
import io.remus.ds.object.RemoteRegister;
import io.remus.ds.queue.MpmcBoundedQueue;
import io.remus.ds.queue.MpmcCrashTolerantQueue;
import io.remus.ds.queue.MpmcScqQueue;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.set.LazyListSet;
import io.remus.ds.set.LockFreeListSet;
import io.remus.ds.set.LockFreeSkipListSet;
import io.remus.ds.testing.VirtualTimeHistories;
import io.remus.ds.testing.VirtualTimeHistories.Outcome;
import io.remus.ds.testing.VirtualTimeHistories.Scenario;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Linearizability histories run under the simulator's deterministic virtual-time scheduler
 * ({@link VirtualTimeHistories}) over 16 seeds each: the lock-free list and skip list sets, the lazy list with spin,
 * MCS and ALock node locks, the hash map, the three
 * MPMC queues, the counter, the max register, the register and a delegated counter. Each runs on a fresh
 * simulated cluster with hostile options (torn 8-byte stores and READs, yields while tearing and inside NIC
 * atomics, poison in freed
 * blocks where the structure frees, segments at the seed's simulated addresses across a 4 GiB boundary), and each
 * history is checked by remus-check. The operation mixes are those of the host-time history tests: the sets' of
 * {@code SetHistories}, the map's of {@code RemoteHashMapHistoriesTest}, the queues' of {@code MpmcBoundedQueueTest}
 * and its siblings, the objects' of {@code ObjectHistoriesTest} and the delegated counter's of
 * {@code DelegatedHistoriesTest}. A failure names its seed; {@code -Dremus.vt.seed=N} reruns that seed alone. The
 * same seed gives the same history, virtual end time, thread switches and RDMA counts.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class VirtualTimeLinearizabilityTest {
    private static final long[] SEEDS = VirtualTimeHistories.seeds(16);
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final int MAP_OPS = 60;
    private static final int OBJECT_OPS = 50;
    private static final int DELEGATED_OPS = 50;

    static SimOptions hostile() {
        return SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true)
                .withYieldInsideNicAtomics(true);
    }

    static SimOptions hostileFreeing() {
        return hostile().withPoisonFreedBlocks(true);
    }

    /** Gives the other threads ready at this virtual time a turn about one call in three. */
    static void maybeYield(SplittableRandom rnd) {
        if (rnd.nextInt(3) == 0) {
            ThreadTime.yield();
        }
    }

    static int threeOrFour(long seed) {
        return 3 + (int) (seed % 2);
    }

    // ------------------------------------------------------------------------------------------------ sets

    static Scenario lockFreeList() {
        return VirtualTimeHistories.setMix("LockFreeListSet", hostileFreeing(), true,
                (t, r, ptr, create) -> create ? LockFreeListSet.create(t, r, 1) : LockFreeListSet.attach(t, r, ptr));
    }

    static Scenario skipList() {
        return VirtualTimeHistories.setMix("LockFreeSkipListSet", hostileFreeing(), true,
                (t, r, ptr, create) -> create ? LockFreeSkipListSet.create(t, r, 1) : LockFreeSkipListSet.attach(t, r, ptr));
    }

    /** The lazy list (Remus' intset), its node locks of {@code kind}. */
    static Scenario lazyList(LockKind kind) {
        return VirtualTimeHistories.setMix("LazyListSet/" + kind, hostileFreeing(), true,
                (t, r, ptr, create) -> create
                        ? LazyListSet.create(new LockContext(t, LockOptions.defaults()), r, kind, 1)
                        : LazyListSet.attach(new LockContext(t, LockOptions.defaults()), r, ptr));
    }

    // ------------------------------------------------------------------------------------------------ map

    static byte[] value(long word, int words) {
        ByteBuffer b = ByteBuffer.allocate(8 * words).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < words; i++) {
            b.putLong(word);
        }
        return b.array();
    }

    /** @return the word every 8 bytes of the value hold, or -1 when they differ */
    static long wordOf(byte[] value) {
        if (value.length == 0 || value.length % 8 != 0) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
        long w = b.getLong(0);
        for (int i = 8; i < value.length; i += 8) {
            if (b.getLong(i) != w) {
                return -1;
            }
        }
        return w;
    }

    /** The map's mix: 40 % put (a value unique to the put), 40 % get, 20 % remove, 4 keys in a table of 2 buckets. */
    static Scenario map() {
        return new Scenario() {
            @Override
            public String name() {
                return "RemoteHashMap";
            }

            @Override
            public Specification<?> spec() {
                return new MapSpec();
            }

            @Override
            public boolean byKey() {
                return true;
            }

            @Override
            public SimOptions options() {
                return hostileFreeing();
            }

            @Override
            public int threads(long seed) {
                return 4;
            }

            @Override
            public int homeNode() {
                return 1;
            }

            @Override
            public long create(ComputeThread home) {
                try (NeverReclaimer r = new NeverReclaimer(home)) {
                    return RemoteHashMap.create(home, r, 1, 2, RemoteHashMap.LONG_KEY_BYTES, 64).ptr();
                }
            }

            @Override
            public void work(int index, ComputeThread t, long ptr, History.Recorder r, SplittableRandom rnd) {
                long[] keys = {1, 2, 3, 4};
                try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), EpochOptions.defaults().withBytes(256, 4096))) {
                    RemoteHashMap map = RemoteHashMap.attach(t, reclaimer, ptr);
                    for (int i = 0; i < MAP_OPS; i++) {
                        maybeYield(rnd);
                        long key = keys[rnd.nextInt(keys.length)];
                        int pick = rnd.nextInt(10);
                        if (pick < 4) {
                            long word = ((index + 1L) << 32) | (i + 1);
                            int op = r.invoke(MapSpec.PUT, key, word);
                            r.respond(op, map.put(key, value(word, 1 + rnd.nextInt(5))) ? 1 : 0);
                        } else if (pick < 8) {
                            int op = r.invoke(MapSpec.GET, key);
                            byte[] v = map.get(key);
                            if (v == null) {
                                r.respond(op, 0);
                            } else {
                                r.respond(op, 1, wordOf(v));
                            }
                        } else {
                            int op = r.invoke(MapSpec.REMOVE, key);
                            r.respond(op, map.remove(key) ? 1 : 0);
                        }
                    }
                }
            }
        };
    }

    // ------------------------------------------------------------------------------------------------ queues

    /**
     * One queue's handle: its offer and its poll.
     *
     * @param offer offers a value, returns whether the queue took it
     * @param poll  takes the oldest value, empty when there is none
     */
    record QueueHandle(LongPredicate offer, Supplier<OptionalLong> poll) {
    }

    /** How to attach a handle of one queue. */
    @FunctionalInterface
    interface QueueAttach {
        QueueHandle attach(ComputeThread t, long ptr);
    }

    /**
     * The queues' mix: two producers (nodes 1 and 2) each offer 30 distinct words once, two consumers (nodes 0
     * and 1) poll 40 times each, on a queue of capacity 2 on node 0, checked as a FIFO of 2 words whose full
     * offers and empty polls are operations too.
     */
    static Scenario queue(String name, boolean earlyFull, ToLongFunction<ComputeThread> create, QueueAttach attach) {
        return new Scenario() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Specification<?> spec() {
                return new BoundedContainerSpec(true, 2, earlyFull);
            }

            @Override
            public SimOptions options() {
                return hostile();
            }

            @Override
            public int threads(long seed) {
                return 4;
            }

            @Override
            public int nodeOf(int index) {
                return new int[] {1, 2, 0, 1}[index];
            }

            @Override
            public long create(ComputeThread home) {
                return create.applyAsLong(home);
            }

            @Override
            public void work(int index, ComputeThread t, long ptr, History.Recorder r, SplittableRandom rnd) {
                QueueHandle q = attach.attach(t, ptr);
                if (index < 2) {
                    for (int i = 0; i < 30; i++) {
                        long v = index * 1000L + i + 1;
                        maybeYield(rnd);
                        int op = r.invoke(BoundedContainerSpec.PUT, v);
                        boolean ok = q.offer().test(v);
                        r.respond(op, ok ? 1 : 0);
                        if (!ok) {
                            ThreadTime.yield();
                        }
                    }
                } else {
                    for (int i = 0; i < 40; i++) {
                        maybeYield(rnd);
                        int op = r.invoke(BoundedContainerSpec.TAKE);
                        OptionalLong v = q.poll().get();
                        if (v.isPresent()) {
                            r.respond(op, v.getAsLong());
                        } else {
                            r.respond(op);
                            ThreadTime.yield();
                        }
                    }
                }
            }
        };
    }

    static Scenario boundedQueue() {
        return queue("MpmcBoundedQueue", false, t -> MpmcBoundedQueue.create(t, 2).ptr(), (t, ptr) -> {
            MpmcBoundedQueue q = MpmcBoundedQueue.attach(t, ptr);
            return new QueueHandle(v -> q.offer(v, PATIENCE), () -> q.poll(PATIENCE));
        });
    }

    static Scenario crashTolerantQueue() {
        return queue("MpmcCrashTolerantQueue", false, t -> MpmcCrashTolerantQueue.create(t, 2, 4).ptr(), (t, ptr) -> {
            MpmcCrashTolerantQueue q = MpmcCrashTolerantQueue.attach(t, ptr);
            return new QueueHandle(v -> q.offer(v, PATIENCE), () -> q.poll(PATIENCE));
        });
    }

    static Scenario scqQueue() {
        return queue("MpmcScqQueue", true, t -> MpmcScqQueue.create(t, 2).ptr(), (t, ptr) -> {
            MpmcScqQueue q = MpmcScqQueue.attach(t, ptr);
            return new QueueHandle(q::offer, q::poll);
        });
    }

    // ------------------------------------------------------------------------------------------------ objects

    /** One object's worker. */
    @FunctionalInterface
    interface ObjectWork {
        void run(int index, ComputeThread t, long ptr, History.Recorder r, SplittableRandom rnd);
    }

    @FunctionalInterface
    interface ObjectCreate {
        long create(ComputeThread home, int threads);
    }

    static Scenario object(String name, Specification<?> spec, SimOptions options, ObjectCreate create, ObjectWork work) {
        return new Scenario() {
            private int threads;

            @Override
            public String name() {
                return name;
            }

            @Override
            public Specification<?> spec() {
                return spec;
            }

            @Override
            public SimOptions options() {
                return options;
            }

            @Override
            public int threads(long seed) {
                threads = threeOrFour(seed);
                return threads;
            }

            @Override
            public long create(ComputeThread home) {
                return create.create(home, threads);
            }

            @Override
            public void work(int index, ComputeThread t, long ptr, History.Recorder r, SplittableRandom rnd) {
                work.run(index, t, ptr, r, rnd);
            }
        };
    }

    static Scenario counter() {
        return object("RemoteCounter", new CounterSpec(), hostile(), (home, threads) -> RemoteCounter.create(home, 1, 0).ptr(),
                (index, t, ptr, r, rnd) -> {
                    RemoteCounter counter = RemoteCounter.attach(t, ptr);
                    for (int i = 0; i < OBJECT_OPS; i++) {
                        maybeYield(rnd);
                        if (rnd.nextBoolean()) {
                            long delta = 1 + rnd.nextInt(3);
                            int op = r.invoke(CounterSpec.FETCH_AND_ADD, delta);
                            r.respond(op, counter.fetchAndAdd(delta));
                        } else {
                            int op = r.invoke(CounterSpec.READ);
                            r.respond(op, counter.read());
                        }
                    }
                });
    }

    static Scenario maxRegister() {
        return object("RemoteMaxRegister", new MaxRegisterSpec(), hostile(),
                (home, threads) -> RemoteMaxRegister.create(home, 1, threads + 1, 0).ptr(),
                (index, t, ptr, r, rnd) -> {
                    RemoteMaxRegister register = RemoteMaxRegister.attach(t, ptr);
                    for (int i = 0; i < OBJECT_OPS; i++) {
                        maybeYield(rnd);
                        if (rnd.nextBoolean()) {
                            long v = (4L * i + rnd.nextInt(12)) * 8 + index + 1;
                            int op = r.invoke(MaxRegisterSpec.WRITE_MAX, v);
                            register.writeMax(v);
                            r.respond(op);
                        } else {
                            int op = r.invoke(MaxRegisterSpec.READ);
                            r.respond(op, register.read());
                        }
                    }
                });
    }

    static Scenario register() {
        int bytes = 16;
        EpochOptions epoch = EpochOptions.defaults().withBytes(4 * bytes, 64 * bytes);
        return object("RemoteRegister", new RegisterSpec(2), hostileFreeing(),
                (home, threads) -> {
                    try (NeverReclaimer r = new NeverReclaimer(home)) {
                        return RemoteRegister.create(home, r, 1, new byte[bytes]).ptr();
                    }
                },
                (index, t, ptr, r, rnd) -> {
                    try (EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), epoch)) {
                        RemoteRegister register = RemoteRegister.attach(t, reclaimer, ptr);
                        MemorySegment value = MemorySegment.ofArray(new byte[bytes]);
                        for (int i = 0; i < OBJECT_OPS; i++) {
                            maybeYield(rnd);
                            if (rnd.nextBoolean()) {
                                long first = ((index + 1L) << 32) | (i + 1);
                                value.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, first);
                                value.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, ~first);
                                int op = r.invoke(RegisterSpec.WRITE, first, ~first);
                                register.write(value);
                                r.respond(op);
                            } else {
                                int op = r.invoke(RegisterSpec.READ);
                                register.read(value);
                                r.respond(op, value.get(ValueLayout.JAVA_LONG_UNALIGNED, 0), value.get(ValueLayout.JAVA_LONG_UNALIGNED, 8));
                            }
                        }
                    }
                });
    }

    // ------------------------------------------------------------------------------------------------ delegation

    /** A delegated counter cell. */
    static final class Cell {
        long value;
    }

    /**
     * The delegated counter's mix: fetch-and-adds and reads, every third through {@code applyAsync}, the trustee
     * serving on node 1 from the run's first thread until the clients ended.
     */
    static Scenario delegatedCounter() {
        return new Scenario() {
            private int threads;
            private Trustee<Cell> trustee;

            @Override
            public String name() {
                return "Trustee(counter)";
            }

            @Override
            public Specification<?> spec() {
                return new CounterSpec();
            }

            @Override
            public SimOptions options() {
                return hostile();
            }

            @Override
            public int threads(long seed) {
                threads = threeOrFour(seed);
                return threads;
            }

            @Override
            public int homeNode() {
                return 1;
            }

            @Override
            public long create(ComputeThread home) {
                trustee = Trustee.create(home, threads, 2);
                trustee.register(0, (Cell cell, long delta) -> {
                    long old = cell.value;
                    cell.value = old + delta;
                    return old;
                });
                trustee.register(1, (Cell cell, long arg) -> cell.value);
                trustee.entrust(new Cell());
                return trustee.ptr();
            }

            @Override
            public void serve(ComputeThread home, long ptr, BooleanSupplier workersEnded) {
                while (!workersEnded.getAsBoolean()) {
                    if (trustee.serveOnce() == 0) {
                        ThreadTime.yield();
                    }
                }
                trustee.close();
            }

            @Override
            public void work(int index, ComputeThread t, long ptr, History.Recorder r, SplittableRandom rnd) {
                Trust<Cell> cell = TrusteeClient.connect(t, ptr).trust(0);
                for (int i = 0; i < DELEGATED_OPS; i++) {
                    maybeYield(rnd);
                    boolean async = rnd.nextInt(3) == 0;
                    if (rnd.nextBoolean()) {
                        long delta = 1 + rnd.nextInt(3);
                        int op = r.invoke(CounterSpec.FETCH_AND_ADD, delta);
                        r.respond(op, async ? cell.applyAsync(0, delta).await(PATIENCE) : cell.apply(0, delta, PATIENCE));
                    } else {
                        int op = r.invoke(CounterSpec.READ);
                        r.respond(op, async ? cell.applyAsync(1, 0).await(PATIENCE) : cell.apply(1, 0, PATIENCE));
                    }
                }
            }
        };
    }

    // ------------------------------------------------------------------------------------------------ the suite

    static Stream<Named<Scenario>> scenarios() {
        return Stream.of(
                lockFreeList(), skipList(), lazyList(LockKind.SPIN), lazyList(LockKind.MCS), lazyList(LockKind.ALOCK), map(), boundedQueue(), crashTolerantQueue(), scqQueue(), counter(), maxRegister(), register(), delegatedCounter())
                .map(s -> Named.of(s.name(), s));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void shouldRecordLinearizableHistoriesUnderTheVirtualTimeSchedulerOnEverySeed(Scenario scenario) throws Exception {
        for (long seed : SEEDS) {
            Outcome o = VirtualTimeHistories.run(scenario, seed);
            String what = VirtualTimeHistories.rerun(scenario, seed);
            assertTrue(o.result().verdict() != Verdict.UNKNOWN, what + ": the checker ran out of its budget: " + o.result());
            assertEquals(Verdict.LINEARIZABLE, o.result().verdict(), what + ": " + o.result() + "\n" + o.historyText());
            assertTrue(overlapping(o.operations()) > 0, what + ": operations of different workers overlapped in virtual time");
        }
    }

    /** @return pairs of operations of different workers whose intervals overlap */
    static long overlapping(List<Operation> ops) {
        long n = 0;
        for (int i = 0; i < ops.size(); i++) {
            for (int j = i + 1; j < ops.size(); j++) {
                Operation a = ops.get(i);
                Operation b = ops.get(j);
                if (a.thread() != b.thread() && !a.precedes(b) && !b.precedes(a)) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void shouldRepeatTheSameHistoryTimeAndCountsForTheSameSeedAndDifferForAnother() throws Exception {
        for (Scenario scenario : List.of(skipList(), delegatedCounter(), boundedQueue())) {
            Outcome a = VirtualTimeHistories.run(scenario, 5);
            Outcome b = VirtualTimeHistories.run(scenario, 5);
            Outcome other = VirtualTimeHistories.run(scenario, 6);
            assertEquals(a.historyText(), b.historyText(), scenario.name() + ": the same seed, the same history");
            assertEquals(a.endNanos(), b.endNanos(), scenario.name() + ": the same virtual end time");
            assertEquals(a.switches(), b.switches(), scenario.name() + ": the same thread switches");
            assertEquals(a.rdma(), b.rdma(), scenario.name() + ": the same RDMA operations");
            assertNotEquals(a.historyText(), other.historyText(), scenario.name() + ": another seed, another history");
        }
    }
}
