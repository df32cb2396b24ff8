package io.remus.ds.name;

import io.remus.core.ComputeThread;
import io.remus.core.NameDirectory;
import io.remus.core.error.BadNameException;
import io.remus.core.error.NameDirectoryFullException;
import io.remus.core.error.NameNotPublishedException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.map.Codec;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.map.TypedRemoteHashMap;
import io.remus.ds.object.ClosedObjectException;
import io.remus.ds.object.RemoteCounter;
import io.remus.ds.object.RemoteMaxRegister;
import io.remus.ds.queue.MpmcScqQueue;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.verbs.testing.NullRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link NamedStructures}: create-or-attach from threads of several nodes at once (one structure survives, the
 * losers' are freed), a name bound to another kind, bad names, a full directory, a deadline, and the cost of an
 * attach by name. The directory lives on node 0. {@link NamedStructuresOnVerbsTest} runs the same cases on the verbs
 * fabric.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NamedStructuresTest {
    /** {@return the fabric the cases run on: the simulator here, the verbs fabric in the twin} */
    Function<SimOptions, Fabric> fabric() {
        return SimFabric::new;
    }

    /** {@return rounds of the racing case} */
    int rounds() {
        return 20;
    }

    private TestCluster cluster() {
        return new TestCluster(fabric(), SimOptions.defaults(), 3, b -> { });
    }

    /**
     * Threads of every node create-or-attach one counter name at once, round after round: exactly one counter
     * survives, every thread's handle is on it (its increments all land there), every other counter created was
     * destroyed (its memory freed: an attach to it finds it destroyed), and none of the survivors was.
     */
    @Test
    void shouldKeepExactlyOneStructureWhenThreadsOfSeveralNodesCreateOrAttachAtOnce() throws Exception {
        int threads = 6;
        int rounds = rounds();
        try (TestCluster c = cluster()) {
            List<long[]> created = Collections.synchronizedList(new ArrayList<>());
            List<long[]> destroyed = Collections.synchronizedList(new ArrayList<>());
            AtomicLongArray handles = new AtomicLongArray(threads * rounds);
            CyclicBarrier start = new CyclicBarrier(threads);
            c.runOnThreads(new int[] {0, 1, 2, 0, 1, 2}, (i, t) -> {
                NamedStructures names = NamedStructures.open(t);
                for (int r = 0; r < rounds; r++) {
                    int round = r;
                    start.await(30, TimeUnit.SECONDS);
                    RemoteCounter counter = names.createOrAttach("hits-" + r, StructureKind.REMOTE_COUNTER, () -> {
                        RemoteCounter mine = RemoteCounter.create(t, i % 3, 100);
                        created.add(new long[] {round, mine.ptr()});
                        return mine;
                    }, ptr -> RemoteCounter.attach(t, ptr), RemoteCounter::ptr, mine -> {
                        destroyed.add(new long[] {round, mine.ptr()});
                        mine.destroy();
                    });
                    counter.fetchAndAdd(1);
                    handles.set(r * threads + i, counter.ptr());
                    counter.close();
                }
            });
            try (ComputeThread t = c.thread(1)) {
                NamedStructures names = NamedStructures.open(t);
                Set<Long> survivors = new HashSet<>();
                for (int r = 0; r < rounds; r++) {
                    int round = r;
                    long bound = names.directory().lookup("hits-" + r);
                    for (int i = 0; i < threads; i++) {
                        assertEquals(bound, handles.get(r * threads + i), "round " + r + ", thread " + i);
                    }
                    try (RemoteCounter counter = RemoteCounter.attach(t, bound)) {
                        assertEquals(100 + threads, counter.read(), "round " + r + ": increments on the survivor");
                    }
                    assertEquals(1, created.stream().filter(e -> e[0] == round).count()
                            - destroyed.stream().filter(e -> e[0] == round).count(), "round " + r + ": counters kept");
                    assertTrue(created.stream().anyMatch(e -> e[0] == round && e[1] == bound), "round " + r);
                    assertFalse(destroyed.stream().anyMatch(e -> e[0] == round && e[1] == bound),
                            "round " + r + ": the survivor was destroyed");
                    survivors.add(bound);
                }
                // A loser's block may serve a later round's counter; one that serves none holds a destroyed counter.
                for (long[] loser : destroyed) {
                    if (!survivors.contains(loser[1])) {
                        assertThrows(ClosedObjectException.class, () -> RemoteCounter.attach(t, loser[1]));
                    }
                }
            }
        }
    }

    /**
     * A caller whose creator is overtaken (another caller binds the name while it creates): it destroys its own
     * counter, whose memory is freed, and returns a handle on the winner's.
     */
    @Test
    void shouldDestroyItsOwnAndAttachTheWinnersWhenAnotherCallerBindsTheNameFirst() {
        try (TestCluster c = cluster(); ComputeThread t1 = c.thread(1); ComputeThread t2 = c.thread(2)) {
            NamedStructures n1 = NamedStructures.open(t1);
            NamedStructures n2 = NamedStructures.open(t2);
            long[] winner = new long[1];
            List<Long> destroyed = new ArrayList<>();
            RemoteCounter got = n1.createOrAttach("hits", StructureKind.REMOTE_COUNTER, () -> {
                RemoteCounter mine = RemoteCounter.create(t1, 1, 0);
                winner[0] = n2.counter("hits", 2, 40).ptr();
                return mine;
            }, ptr -> RemoteCounter.attach(t1, ptr), RemoteCounter::ptr, mine -> {
                destroyed.add(mine.ptr());
                mine.destroy();
            });
            assertEquals(winner[0], got.ptr());
            assertEquals(40, got.read());
            assertEquals(1, destroyed.size());
            assertThrows(ClosedObjectException.class, () -> RemoteCounter.attach(t1, destroyed.get(0)));
        }
    }

    @Test
    void shouldAttachTheNamedStructureThroughEachTypedHelper() throws Exception {
        try (TestCluster c = cluster(); ComputeThread t0 = c.thread(0); ComputeThread t2 = c.thread(2)) {
            NamedStructures n0 = NamedStructures.open(t0);
            NamedStructures n2 = NamedStructures.open(t2);
            NeverReclaimer r0 = new NeverReclaimer(t0);
            NeverReclaimer r2 = new NeverReclaimer(t2);
            TypedRemoteHashMap<String, String> users = n0.hashMap("users", r0, 1, 16, 16, 32, Codec.UTF8, Codec.UTF8);
            assertTrue(users.put("ada", "lovelace"));
            TypedRemoteHashMap<String, String> users2 = n2.hashMap("users", r2, 2, 64, 8, 8, Codec.UTF8, Codec.UTF8);
            assertEquals(users.ptr(), users2.ptr(), "the first caller's map, whatever a later caller passes");
            assertEquals("lovelace", users2.get("ada"));
            assertEquals(16, users2.maxKeyBytes());
            RemoteHashMap ids = n2.hashMap("ids", r2, 1, 16, 8);
            assertEquals(ids.ptr(), n0.hashMap("ids", r0, 1, 16, 8).ptr());
            MpmcScqQueue jobs = n0.scqQueue("jobs", 16);
            assertTrue(jobs.offer(42));
            MpmcScqQueue jobs2 = n2.scqQueue("jobs", 16);
            assertEquals(jobs.ptr(), jobs2.ptr());
            assertEquals(OptionalLong.of(42), jobs2.poll());
            RemoteCounter hits = n2.counter("hits", 0, 5);
            assertEquals(5, n0.counter("hits", 1, 9).read());
            assertEquals(hits.ptr(), n0.directory().lookup("hits"));
        }
    }

    @Test
    void shouldRefuseANameBoundToAnotherKindNamingNameAndKindsWithoutCreating() {
        try (TestCluster c = cluster(); ComputeThread t0 = c.thread(0); ComputeThread t1 = c.thread(1)) {
            NamedStructures n0 = NamedStructures.open(t0);
            NamedStructures n1 = NamedStructures.open(t1);
            RemoteCounter hits = n0.counter("hits", 0, 0);
            long roundTrips = t1.roundTrips();
            WrongNamedStructureException e = assertThrows(WrongNamedStructureException.class,
                    () -> n1.createOrAttach("hits", StructureKind.MPMC_SCQ_QUEUE, () -> fail("created"),
                            ptr -> MpmcScqQueue.attach(t1, ptr), q -> 0L, q -> fail("destroyed")));
            assertEquals("hits", e.name());
            assertEquals(StructureKind.MPMC_SCQ_QUEUE, e.expected());
            assertEquals(StructureKind.REMOTE_COUNTER, e.found());
            assertTrue(e.getMessage().contains("\"hits\"") && e.getMessage().contains("MpmcScqQueue")
                    && e.getMessage().contains("RemoteCounter") && e.getMessage().contains(RemotePtr.toString(hits.ptr())),
                    e.getMessage());
            assertEquals(roundTrips + 3, t1.roundTrips(), "the lookup (2 READs) and the attach's READ, nothing created");
            WrongNamedStructureException waited = assertThrows(WrongNamedStructureException.class,
                    () -> n1.attach("hits", StructureKind.REMOTE_MAX_REGISTER, ptr -> RemoteMaxRegister.attach(t1, ptr),
                            Duration.ZERO));
            assertEquals(StructureKind.REMOTE_MAX_REGISTER, waited.expected());

            n0.directory().publish("raw", c.block(1, 64));
            WrongNamedStructureException raw = assertThrows(WrongNamedStructureException.class,
                    () -> n1.counter("raw", 0, 0));
            assertNull(raw.found());
            assertTrue(raw.getMessage().contains("\"raw\" is bound to no structure"), raw.getMessage());
        }
    }

    @Test
    void shouldRefuseBadNamesNamingThemBeforeAnyRdmaOperation() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(1)) {
            NamedStructures names = NamedStructures.open(t);
            long roundTrips = t.roundTrips();
            for (String bad : List.of("", "x".repeat(NameDirectory.MAX_NAME_BYTES + 1), "with space", "caf\u00e9", "nl\n")) {
                BadNameException e = assertThrows(BadNameException.class, () -> names.createOrAttach(bad,
                        StructureKind.REMOTE_COUNTER, () -> fail("created"), ptr -> fail("attached"), q -> 0L,
                        q -> fail("destroyed")));
                assertEquals(bad, e.name());
                assertTrue(e.getMessage().contains(BadNameException.quote(bad)), e.getMessage());
                assertThrows(BadNameException.class, () -> names.counter(bad, 0, 0));
                assertThrows(BadNameException.class, () -> names.attach(bad, StructureKind.REMOTE_COUNTER,
                        ptr -> fail("attached"), Duration.ofSeconds(5)));
            }
            assertEquals(roundTrips, t.roundTrips(), "round trips of refused calls");
        }
    }

    /** A directory of 2 slots: a third name is refused naming the capacity, and the counter made for it is freed. */
    @Test
    void shouldRefuseANewNameNamingTheCapacityAndFreeWhatItCreatedWhenTheDirectoryIsFull() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(1)) {
            NamedStructures names = NamedStructures.of(NameDirectory.open(t, 0, 2));
            RemoteCounter a = names.counter("a", 0, 1);
            RemoteCounter b = names.counter("b", 0, 2);
            long[] made = new long[2];
            NameDirectoryFullException full = assertThrows(NameDirectoryFullException.class,
                    () -> names.createOrAttach("c", StructureKind.REMOTE_COUNTER, () -> {
                        RemoteCounter mine = RemoteCounter.create(t, 2, 3);
                        made[0] = mine.ptr();
                        return mine;
                    }, ptr -> RemoteCounter.attach(t, ptr), RemoteCounter::ptr, mine -> {
                        made[1] = mine.ptr();
                        mine.destroy();
                    }));
            assertEquals(2, full.capacity());
            assertEquals("c", full.name());
            assertTrue(full.getMessage().contains("all of its 2 slots"), full.getMessage());
            assertTrue(made[0] != RemotePtr.NULL && made[0] == made[1], "the counter created for \"c\" was destroyed");
            assertThrows(ClosedObjectException.class, () -> RemoteCounter.attach(t, made[0]));
            assertEquals(a.ptr(), names.counter("a", 0, 0).ptr());
            assertEquals(b.ptr(), names.counter("b", 0, 0).ptr());
        }
    }

    @Test
    void shouldThrowNamingTheNameWhenNobodyCreatesItBeforeTheDeadline() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(2)) {
            NamedStructures names = NamedStructures.open(t);
            Duration timeout = Duration.ofMillis(50);
            NameNotPublishedException e = assertThrows(NameNotPublishedException.class,
                    () -> names.attach("later", StructureKind.REMOTE_COUNTER, ptr -> RemoteCounter.attach(t, ptr), timeout));
            assertEquals("later", e.name());
            assertEquals(timeout, e.timeout());
            assertTrue(e.getMessage().contains("\"later\""), e.getMessage());
        }
    }

    @Test
    void shouldAttachOnceAnotherNodeCreatesTheName() throws Exception {
        try (TestCluster c = cluster()) {
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicLongArray ptrs = new AtomicLongArray(2);
            c.runOnThreads(new int[] {2, 1}, (i, t) -> {
                NamedStructures names = NamedStructures.open(t);
                if (i == 0) {
                    waiting.countDown();
                    try (RemoteCounter counter = names.attach("later", StructureKind.REMOTE_COUNTER,
                            ptr -> RemoteCounter.attach(t, ptr), Duration.ofSeconds(30))) {
                        ptrs.set(0, counter.ptr());
                    }
                } else {
                    assertTrue(waiting.await(30, TimeUnit.SECONDS));
                    Thread.sleep(20);
                    ptrs.set(1, names.counter("later", 1, 0).ptr());
                }
            });
            assertEquals(ptrs.get(1), ptrs.get(0));
        }
    }

    /** The null rule of remus-ds: a null argument is a NullPointerException naming the parameter, before anything. */
    @Test
    void shouldThrowNullPointerNamingTheParameterWhenAnArgumentIsNull() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(1); NeverReclaimer reclaimer = new NeverReclaimer(t)) {
            NamedStructures names = NamedStructures.open(t);
            Map<Class<?>, Object> samples = new HashMap<>(NullRule.jdkSamples());
            samples.put(ComputeThread.class, t);
            samples.put(NameDirectory.class, names.directory());
            samples.put(Reclaimer.class, reclaimer);
            samples.put(Codec.class, Codec.LONG);
            samples.put(Supplier.class, (Supplier<Object>) () -> fail("created"));
            samples.put(LongFunction.class, (LongFunction<Object>) ptr -> fail("attached"));
            samples.put(ToLongFunction.class, (ToLongFunction<Object>) x -> 0L);
            samples.put(Consumer.class, (Consumer<Object>) x -> fail("destroyed"));
            long roundTrips = t.roundTrips();
            List<String> violations = new ArrayList<>(NullRule.checkStaticMethods(NamedStructures.class, samples, Set.of()));
            violations.addAll(NullRule.checkInstanceMethods(names, samples, Set.of()));
            assertEquals(List.of(), violations);
            assertEquals(roundTrips, t.roundTrips(), "round trips of refused calls");
        }
    }

    /** A bound name from another node: the lookup's 2 READs, then the counter's attach (1 READ, 1 compare-and-swap). */
    @Test
    void shouldCostTheLookupAndTheAttachWhenTheNameIsBound() {
        try (TestCluster c = cluster(); ComputeThread t0 = c.thread(0); ComputeThread t1 = c.thread(1)) {
            NamedStructures.open(t0).counter("hits", 2, 0);
            NamedStructures names = NamedStructures.open(t1);
            long reads = t1.postedOperations(Opcode.READ);
            long cas = t1.postedOperations(Opcode.COMPARE_AND_SWAP);
            names.counter("hits", 2, 0);
            assertEquals(3, t1.postedOperations(Opcode.READ) - reads);
            assertEquals(1, t1.postedOperations(Opcode.COMPARE_AND_SWAP) - cas);
        }
    }
}
