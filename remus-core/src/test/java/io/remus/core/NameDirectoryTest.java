package io.remus.core;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.BadNameException;
import io.remus.core.error.NameDirectoryFullException;
import io.remus.core.error.NameNotPublishedException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.verbs.testing.NullRule;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link NameDirectory}: publish and lookup, racing publishes and opens, bad names, a full directory, deadlines, costs. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NameDirectoryTest {
    private static final String LONGEST = "abcdefghijklmnopqrstuvwxyz01234";

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /** Rounds of {@link #shouldBindExactlyOnceWhenThreadsOfSeveralNodesPublishOneNameAtOnce}. */
    int rounds() {
        return 40;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReturnTheFirstPublishedPointerToEveryLaterPublishAndLookup(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t0 = c.thread(0); ComputeThread t2 = c.thread(2)) {
            NameDirectory d0 = NameDirectory.open(t0);
            NameDirectory d2 = NameDirectory.open(t2);
            assertEquals(d0.ptr(), d2.ptr());
            assertEquals(NameDirectory.DEFAULT_CAPACITY, d2.capacity());
            long users = RemotePtr.of(1, 4096);
            assertEquals(RemotePtr.NULL, d2.lookup("users"));
            assertEquals(users, d0.publish("users", users));
            assertEquals(users, d2.lookup("users"));
            assertEquals(users, d2.publish("users", RemotePtr.of(2, 8192)), "a bound name keeps its pointer");
            assertEquals(users, d0.publish("users", users), "publishing the bound pointer again is harmless");
            assertEquals(RemotePtr.NULL, d2.lookup("user"));
            assertEquals(RemotePtr.NULL, d2.lookup("users2"));
            long longest = RemotePtr.of(0, 64);
            assertEquals(longest, d2.publish(LONGEST, longest));
            assertEquals(longest, d0.lookup(LONGEST));
            assertEquals(RemotePtr.NULL, d0.lookup(LONGEST.substring(0, 30)));
            assertEquals(users, d0.lookup("users"));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepDirectoriesOfDifferentMemoryNodesApart(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            NameDirectory d1 = NameDirectory.open(t, 1);
            NameDirectory d2 = NameDirectory.open(t, 2, 16);
            assertEquals(1, RemotePtr.node(d1.ptr()));
            assertEquals(2, RemotePtr.node(d2.ptr()));
            assertEquals(16, d2.capacity());
            d1.publish("x", 8);
            assertEquals(RemotePtr.NULL, d2.lookup("x"));
            assertEquals(16, NameDirectory.open(t, 2).capacity(), "an existing directory keeps its capacity");
            BadArgumentException other = assertThrows(BadArgumentException.class, () -> NameDirectory.open(t, 2, 32));
            assertTrue(other.getMessage().contains("16 slots, not the 32"), other.getMessage());
            assertThrows(BadArgumentException.class, () -> NameDirectory.open(t, 3));
            assertThrows(BadArgumentException.class, () -> NameDirectory.open(t, 1, 0));
            assertThrows(BadArgumentException.class, () -> NameDirectory.open(t, 1, NameDirectory.MAX_CAPACITY + 1));
        }
    }

    /**
     * Threads of every node publish their own pointers under one name at once, round after round with a new name
     * each (of 1 to 4 name words), READs tearing words in two halves: exactly one binds it, and every thread gets
     * and looks up that one's pointer. A READ that returns a name word half stored, taken for another name's word,
     * would send a thread to the next slot, where it binds the name a second time.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldBindExactlyOnceWhenThreadsOfSeveralNodesPublishOneNameAtOnce(Function<SimOptions, Fabric> make)
            throws Exception {
        SimOptions tearing = SimOptions.defaults().withTearReads(true).withYieldWhileTearing(true);
        int threads = 6;
        int rounds = rounds();
        try (TestCluster c = new TestCluster(make, tearing, 3, b -> { })) {
            AtomicLongArray got = new AtomicLongArray(threads * rounds);
            AtomicLongArray seen = new AtomicLongArray(threads * rounds);
            AtomicInteger[] winners = new AtomicInteger[rounds];
            for (int r = 0; r < rounds; r++) {
                winners[r] = new AtomicInteger();
            }
            CyclicBarrierWithDeadline start = new CyclicBarrierWithDeadline(threads);
            c.runOnThreads(new int[] {0, 1, 2, 0, 1, 2}, (i, t) -> {
                NameDirectory d = NameDirectory.open(t, 1, 64);
                for (int r = 0; r < rounds; r++) {
                    String name = LONGEST.substring(0, 1 + (r * 7) % NameDirectory.MAX_NAME_BYTES) + "#" + r;
                    name = name.substring(Math.max(0, name.length() - NameDirectory.MAX_NAME_BYTES));
                    long mine = RemotePtr.of(i % 3, 8L * (1 + i + threads * r));
                    start.await();
                    long bound = d.publish(name, mine);
                    if (bound == mine) {
                        winners[r].incrementAndGet();
                    }
                    got.set(r * threads + i, bound);
                    seen.set(r * threads + i, d.lookup(name));
                }
            });
            for (int r = 0; r < rounds; r++) {
                assertEquals(1, winners[r].get(), "round " + r + ": publishes that bound the name");
                Set<Long> pointers = new HashSet<>();
                for (int i = 0; i < threads; i++) {
                    pointers.add(got.get(r * threads + i));
                    pointers.add(seen.get(r * threads + i));
                }
                assertEquals(1, pointers.size(), "round " + r + ": pointers returned " + pointers);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCreateOneTableWhenThreadsOfSeveralNodesOpenAtOnce(Function<SimOptions, Fabric> make) throws Exception {
        int threads = 6;
        try (TestCluster c = TestCluster.of(make)) {
            AtomicLongArray tables = new AtomicLongArray(threads);
            CyclicBarrierWithDeadline start = new CyclicBarrierWithDeadline(threads);
            c.runOnThreads(new int[] {0, 1, 2, 0, 1, 2}, (i, t) -> {
                start.await();
                NameDirectory d = NameDirectory.open(t, 2);
                tables.set(i, d.ptr());
                d.publish("n" + i, 8L * (i + 1));
            });
            try (ComputeThread t = c.thread(1)) {
                NameDirectory d = NameDirectory.open(t, 2);
                for (int i = 0; i < threads; i++) {
                    assertEquals(d.ptr(), tables.get(i), "thread " + i + "'s table");
                    assertEquals(8L * (i + 1), d.lookup("n" + i));
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRejectBadNamesNamingThemBeforeAnyRdmaOperation(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            NameDirectory d = NameDirectory.open(t, 0);
            long before = t.roundTrips();
            for (String bad : List.of("", LONGEST + "x", "two words", "tab\there", "na\u00efve", "nul\u0000", "caf\u00e9")) {
                for (Function<String, Long> call : List.<Function<String, Long>>of(d::lookup, n -> d.publish(n, 8),
                        n -> d.await(n, Duration.ofSeconds(5)))) {
                    BadNameException e = assertThrows(BadNameException.class, () -> call.apply(bad));
                    assertEquals(bad, e.name());
                    assertTrue(e.getMessage().contains(BadNameException.quote(bad)), e.getMessage());
                }
            }
            assertEquals(before, t.roundTrips(), "round trips of refused calls");
            assertEquals("name", assertThrows(NullPointerException.class, () -> d.lookup(null)).getMessage());
            BadArgumentException nullPtr = assertThrows(BadArgumentException.class, () -> d.publish("x", RemotePtr.NULL));
            assertTrue(nullPtr.getMessage().contains("\"x\""), nullPtr.getMessage());
            assertThrows(BadArgumentException.class, () -> d.await("x", Duration.ofMillis(-1)));
            assertEquals(before, t.roundTrips(), "round trips of refused calls");
            assertEquals(RemotePtr.NULL, d.lookup("x"));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseANewNameNamingTheCapacityWhenFullAndKeepTheOthers(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            NameDirectory d = NameDirectory.open(t, 0, 4);
            for (int i = 0; i < 4; i++) {
                assertEquals(8L * (i + 1), d.publish("name-" + i, 8L * (i + 1)));
            }
            NameDirectoryFullException full = assertThrows(NameDirectoryFullException.class, () -> d.publish("extra", 64));
            assertEquals(4, full.capacity());
            assertEquals("extra", full.name());
            assertTrue(full.getMessage().contains("all of its 4 slots") && full.getMessage().contains("\"extra\""),
                    full.getMessage());
            assertEquals(RemotePtr.NULL, d.lookup("extra"));
            for (int i = 0; i < 4; i++) {
                assertEquals(8L * (i + 1), d.lookup("name-" + i));
                assertEquals(8L * (i + 1), d.publish("name-" + i, 128), "a bound name in a full directory");
            }
        }
    }

    /** A slot whose first name word a publish stored before it stopped: the next publish of that name completes it. */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCompleteASlotHalfClaimedForTheNameAndSkipItForOthers(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(2)) {
            NameDirectory d = NameDirectory.open(t, 0, 1);
            String name = "abcdefghijk";
            long word0 = name.length();
            for (int i = 0; i < 7; i++) {
                word0 |= (long) name.charAt(i) << (8 * (i + 1));
            }
            long slot = RemotePtr.offset(d.ptr(), NameDirectory.HEADER_BYTES);
            assertEquals(0, t.compareAndSwap(slot, 0, word0));
            assertEquals(RemotePtr.NULL, d.lookup(name), "a half-claimed slot binds nothing");
            assertThrows(NameDirectoryFullException.class, () -> d.publish("Abcdefghijk", 8));
            assertEquals(16, d.publish(name, 16));
            assertEquals(16, d.lookup(name));
            assertEquals(16, t.read(RemotePtr.offset(slot, NameDirectory.POINTER)));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowNamingTheNameWhenNothingIsPublishedBeforeTheDeadline(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            NameDirectory d = NameDirectory.open(t, 0);
            Duration timeout = Duration.ofMillis(50);
            NameNotPublishedException e = assertThrows(NameNotPublishedException.class, () -> d.await("never", timeout));
            assertEquals("never", e.name());
            assertEquals(timeout, e.timeout());
            assertTrue(e.getMessage().contains("\"never\"") && e.getMessage().contains("PT0.05S"), e.getMessage());
            assertThrows(NameNotPublishedException.class, () -> d.await("never", Duration.ZERO));
            d.publish("now", 8);
            assertEquals(8, d.await("now", Duration.ZERO));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReturnFromAwaitOnceAnotherNodePublishes(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = TestCluster.of(make)) {
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicLongArray got = new AtomicLongArray(1);
            c.runOnThreads(new int[] {1, 2}, (i, t) -> {
                NameDirectory d = NameDirectory.open(t, 0);
                if (i == 0) {
                    waiting.countDown();
                    got.set(0, d.await("late", Duration.ofSeconds(30)));
                } else {
                    assertTrue(waiting.await(30, TimeUnit.SECONDS));
                    Thread.sleep(20);
                    d.publish("late", 4096);
                }
            });
            assertEquals(4096, got.get(0));
        }
    }

    /** The null rule of remus-core: a null argument is a NullPointerException naming the parameter, before anything. */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowNullPointerNamingTheParameterWhenAnArgumentIsNull(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            NameDirectory d = NameDirectory.open(t, 0);
            Map<Class<?>, Object> samples = new HashMap<>(NullRule.jdkSamples());
            samples.put(ComputeThread.class, t);
            long roundTrips = t.roundTrips();
            List<String> violations = new ArrayList<>(NullRule.checkStaticMethods(NameDirectory.class, samples, Set.of()));
            violations.addAll(NullRule.checkInstanceMethods(d, samples, Set.of()));
            assertEquals(List.of(), violations);
            assertEquals(roundTrips, t.roundTrips(), "round trips of refused calls");
        }
    }

    /** A directory on another node: the READs and compare-and-swaps the class documentation states. */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCostWhatTheDocumentationStates(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            NameDirectory d = NameDirectory.open(t, 0);
            Ops miss = Ops.of(t, () -> d.lookup("users"));
            assertEquals(new Ops(1, 0), miss, "a lookup of an unbound name");
            assertEquals(new Ops(1, 2), Ops.of(t, () -> d.publish("users", 8)), "a publish of a new 5-character name");
            assertEquals(new Ops(2, 0), Ops.of(t, () -> d.lookup("users")), "a lookup of a bound name");
            assertEquals(new Ops(1, 1), Ops.of(t, () -> d.publish("users", 16)), "a publish of a bound name");
            assertEquals(new Ops(1, 5), Ops.of(t, () -> d.publish(LONGEST, 8)), "a publish of a new 31-character name");
            assertEquals(new Ops(3, 0), Ops.of(t, () -> NameDirectory.open(t, 0)), "an open of an existing directory");
        }
    }

    /** READs and compare-and-swaps a call posts. */
    record Ops(long reads, long compareAndSwaps) {
        static Ops of(ComputeThread t, Runnable call) {
            long r = t.postedOperations(Opcode.READ);
            long cas = t.postedOperations(Opcode.COMPARE_AND_SWAP);
            call.run();
            return new Ops(t.postedOperations(Opcode.READ) - r, t.postedOperations(Opcode.COMPARE_AND_SWAP) - cas);
        }
    }

    /** A barrier whose wait runs out after 30 s instead of hanging a test. */
    static final class CyclicBarrierWithDeadline {
        private final java.util.concurrent.CyclicBarrier barrier;

        CyclicBarrierWithDeadline(int parties) {
            this.barrier = new java.util.concurrent.CyclicBarrier(parties);
        }

        void await() throws Exception {
            barrier.await(30, TimeUnit.SECONDS);
        }
    }
}
