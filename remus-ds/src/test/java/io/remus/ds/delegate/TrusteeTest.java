package io.remus.ds.delegate;

import io.remus.core.ComputeThread;
import io.remus.core.config.NodeRange;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.StaleHandleException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Trustee}, {@link TrusteeClient} and {@link Trust}: results of synchronous and asynchronous
 * applies, exact totals under many clients on several nodes, fairness among clients, typed errors of a
 * stopped or closed trustee and of bad input, and the RDMA operations per call.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TrusteeTest {
    private static final int TRUSTEE_NODE = 1;
    private static final int REMOTE_NODE = 0;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    int incrementsPerThread() {
        return 300;
    }

    private static TestCluster cluster(Function<SimOptions, Fabric> make) {
        return new TestCluster(make, SimOptions.defaults(), 3, b -> b.segmentSize(4 << 20));
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReturnResultsOfSyncAndAsyncAppliesWhenClientsAreRemoteAndLocal(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = cluster(make); TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, 4, 4, 2)) {
            long ptr = runner.ptr();
            c.runOnThreads(new int[] {REMOTE_NODE, TRUSTEE_NODE}, (index, t) -> {
                if (index == 1) {
                    return;
                }
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                Trust<Delegated.Cell> counter = client.trust(0);
                Trust<Delegated.Cell> register = client.trust(1);
                assertEquals(0, counter.apply(Delegated.FETCH_AND_ADD, 5, PATIENCE));
                assertEquals(5, counter.apply(Delegated.READ, 0, PATIENCE));
                assertEquals(0, register.apply(Delegated.WRITE, 42, PATIENCE));
                assertEquals(42, register.apply(Delegated.READ, 0, PATIENCE));
                List<PendingApply> inFlight = new ArrayList<>();
                for (int i = 0; i < client.slots(); i++) {
                    inFlight.add(counter.applyAsync(Delegated.FETCH_AND_ADD, 1));
                }
                for (int i = 0; i < inFlight.size(); i++) {
                    assertEquals(5 + i, inFlight.get(i).await(PATIENCE), "slot " + i + ": the trustee serves a client's slots in order");
                }
                assertEquals(5 + client.slots(), counter.apply(Delegated.READ, 0, PATIENCE));
            });
            c.runOnThreads(new int[] {TRUSTEE_NODE}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                Trust<Delegated.Cell> counter = client.trust(0);
                assertEquals(5 + 4, counter.apply(Delegated.FETCH_AND_ADD, 1, PATIENCE));
                PendingApply p = counter.applyAsync(Delegated.READ, 0);
                assertEquals(10, p.await(PATIENCE));
            });
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepExactTotalsWhenManyClientsOnSeveralNodesIncrement(Function<SimOptions, Fabric> make) throws Exception {
        int threads = 6;
        int cells = 3;
        int n = incrementsPerThread();
        try (TestCluster c = cluster(make); TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, threads, 4, cells)) {
            long ptr = runner.ptr();
            AtomicLongArray added = new AtomicLongArray(cells);
            Set<Long> olds = ConcurrentHashMap.newKeySet();
            c.runOnThreads(new int[] {0, 1, 2, 0, 1, 2}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                SplittableRandom rnd = new SplittableRandom(index);
                for (int i = 0; i < n; i++) {
                    int cell = rnd.nextInt(cells);
                    long old = client.<Delegated.Cell>trust(cell).apply(Delegated.FETCH_AND_ADD, 1, PATIENCE);
                    assertTrue(olds.add(cell * 1_000_000L + old), "cell " + cell + ": value " + old + " returned twice");
                    added.incrementAndGet(cell);
                }
            });
            long[] values = runner.stop(true);
            for (int cell = 0; cell < cells; cell++) {
                assertEquals(added.get(cell), values[cell], "cell " + cell + " counts every increment once");
            }
            assertEquals((long) threads * n, olds.size());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldServeEveryClientsSlotsInOnePassWhenAllClientsHaveRequestsWaiting(Function<SimOptions, Fabric> make) {
        int clients = 5;
        int slots = 3;
        try (TestCluster c = cluster(make); ComputeThread t = c.thread(TRUSTEE_NODE)) {
            Trustee<Delegated.Cell> trustee = Delegated.oneCell(Trustee.create(t, clients, slots));
            List<ComputeThread> threads = new ArrayList<>();
            List<PendingApply> pending = new ArrayList<>();
            try {
                for (int i = 0; i < clients; i++) {
                    ComputeThread ct = c.thread(i % 3);
                    threads.add(ct);
                    TrusteeClient client = TrusteeClient.connect(ct, trustee.ptr());
                    for (int s = 0; s < slots; s++) {
                        pending.add(client.<Delegated.Cell>trust(0).applyAsync(Delegated.FETCH_AND_ADD, 1));
                    }
                    client.flush();
                }
                assertEquals(clients * slots, trustee.serveOnce(), "one pass serves every waiting request of every client");
                assertEquals(clients, trustee.clients());
                Set<Long> olds = new HashSet<>();
                for (PendingApply p : pending) {
                    assertTrue(p.poll(), "answered in the pass");
                    olds.add(p.await(Duration.ZERO));
                }
                assertEquals(clients * slots, olds.size());
                assertEquals(0, trustee.serveOnce(), "nothing is served twice");
            } finally {
                threads.forEach(ComputeThread::close);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldServeAClientsRequestsInTheOrderItMadeThemWhateverSlotsTheyTook(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread t = c.thread(TRUSTEE_NODE); ComputeThread ct = c.thread(1)) {
            Trustee<Delegated.Cell> trustee = Delegated.oneCell(Trustee.create(t, 1, 3));
            TrusteeClient client = TrusteeClient.connect(ct, trustee.ptr());
            Trust<Delegated.Cell> cell = client.trust(0);
            PendingApply first = cell.applyAsync(Delegated.FETCH_AND_ADD, 1);
            PendingApply second = cell.applyAsync(Delegated.FETCH_AND_ADD, 1);
            client.flush();
            assertEquals(2, trustee.serveOnce());
            assertEquals(1, second.await(PATIENCE));
            // The first request's slot (a lower one) stays taken until its result is read, so the next request
            // takes the second's slot; then the first's comes free and the request after takes it.
            PendingApply read = cell.applyAsync(Delegated.READ, 0);
            client.flush();
            assertEquals(0, first.await(PATIENCE));
            PendingApply add = cell.applyAsync(Delegated.FETCH_AND_ADD, 10);
            client.flush();
            assertEquals(2, trustee.serveOnce());
            assertEquals(2, read.await(PATIENCE), "the READ, made first, ran first though its slot is the higher one");
            assertEquals(2, add.await(PATIENCE));
            PendingApply after = cell.applyAsync(Delegated.READ, 0);
            client.flush();
            assertEquals(1, trustee.serveOnce());
            assertEquals(12, after.await(PATIENCE));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldHoldBackALaterRequestUntilTheEarlierOneArrivesWhenThePassSeesTheLaterFirst(Function<SimOptions, Fabric> make) {
        try (TestCluster c = cluster(make); ComputeThread t = c.thread(TRUSTEE_NODE); ComputeThread ct = c.thread(REMOTE_NODE)) {
            Trustee<Delegated.Cell> trustee = Delegated.oneCell(Trustee.create(t, 1, 3));
            TrusteeClient client = TrusteeClient.connect(ct, trustee.ptr());
            Trust<Delegated.Cell> cell = client.trust(0);
            PendingApply first = cell.applyAsync(Delegated.FETCH_AND_ADD, 1);
            PendingApply second = cell.applyAsync(Delegated.FETCH_AND_ADD, 1);
            client.flush();
            // The pass must see the second request and not the first: as when the first's WRITEs land just
            // after the pass looked at its slot. Hide the first by turning its sequence word back.
            long firstSequence = trustee.ptr() + Trustee.HEADER_BYTES + 8 + first.slot * Trustee.REQUEST_BYTES
                    + Trustee.REQUEST_SEQUENCE;
            assertEquals(first.sequence, ct.read(firstSequence));
            ct.write(firstSequence, first.sequence - 1);
            assertEquals(0, trustee.serveOnce(), "the later request waits for the earlier one");
            ct.write(firstSequence, first.sequence);
            assertEquals(2, trustee.serveOnce());
            assertEquals(0, first.await(PATIENCE));
            assertEquals(1, second.await(PATIENCE));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldStarveNoClientWhenManyClientsHammerOneCounter(Function<SimOptions, Fabric> make) throws Exception {
        int threads = 6;
        int rounds = incrementsPerThread() / 4;
        try (TestCluster c = cluster(make); TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, threads, 4, 1)) {
            long ptr = runner.ptr();
            AtomicLongArray done = new AtomicLongArray(threads);
            c.runOnThreads(new int[] {0, 1, 2, 0, 1, 2}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                Trust<Delegated.Cell> counter = client.trust(0);
                PendingApply[] inFlight = new PendingApply[client.slots()];
                for (int r = 0; r < rounds; r++) {
                    for (int s = 0; s < inFlight.length; s++) {
                        inFlight[s] = counter.applyAsync(Delegated.FETCH_AND_ADD, 1);
                    }
                    for (PendingApply p : inFlight) {
                        p.await(PATIENCE);
                        done.incrementAndGet(index);
                    }
                }
            });
            long[] values = runner.stop(true);
            for (int i = 0; i < threads; i++) {
                assertEquals(rounds * 4L, done.get(i), "client " + i + " got every answer within its deadline");
            }
            assertEquals(threads * rounds * 4L, values[0]);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFailWithTrusteeTimeoutAtTheDeadlineWhenTheTrusteeStopped(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = cluster(make); TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, 4, 2, 1)) {
            long ptr = runner.ptr();
            c.runOnThreads(new int[] {REMOTE_NODE, TRUSTEE_NODE}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                client.<Delegated.Cell>trust(0).apply(Delegated.FETCH_AND_ADD, 1, PATIENCE);
            });
            runner.stop(false);
            c.runOnThreads(new int[] {REMOTE_NODE, TRUSTEE_NODE}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                Trust<Delegated.Cell> counter = client.trust(0);
                PendingApply pending = counter.applyAsync(Delegated.FETCH_AND_ADD, 1);
                Duration timeout = Duration.ofMillis(200);
                long start = System.nanoTime();
                TrusteeTimeoutException e = assertThrows(TrusteeTimeoutException.class, () -> pending.await(timeout));
                assertTrue(System.nanoTime() - start >= timeout.toNanos(), "not before the deadline");
                assertTrue(e.getMessage().contains("op " + Delegated.FETCH_AND_ADD) && e.getMessage().contains("trustee"), e.getMessage());
                assertThrows(TrusteeTimeoutException.class, () -> counter.apply(Delegated.READ, 0, timeout));
                assertThrows(TrusteeTimeoutException.class, () -> counter.apply(Delegated.READ, 0, timeout),
                        "a later call also fails at its deadline once every slot waits for a dead trustee");
                assertFalse(client.isTrusteeClosed());
            });
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFailFastWithTrusteeClosedWhenTheTrusteeClosed(Function<SimOptions, Fabric> make) throws Exception {
        int clients = 2;
        try (TestCluster c = cluster(make); ComputeThread t = c.thread(TRUSTEE_NODE);
             ComputeThread remote = c.thread(REMOTE_NODE); ComputeThread local = c.thread(TRUSTEE_NODE)) {
            Trustee<Delegated.Cell> trustee = Delegated.oneCell(Trustee.create(t, clients + 1, 2));
            List<PendingApply> pending = new ArrayList<>();
            List<Trust<Delegated.Cell>> trusts = new ArrayList<>();
            for (ComputeThread ct : List.of(remote, local)) {
                Trust<Delegated.Cell> trust = TrusteeClient.connect(ct, trustee.ptr()).trust(0);
                trusts.add(trust);
                pending.add(trust.applyAsync(Delegated.FETCH_AND_ADD, 1));
                trust.client().flush();
            }
            trustee.close();
            trustee.close();
            for (int i = 0; i < clients; i++) {
                PendingApply p = pending.get(i);
                assertThrows(TrusteeClosedException.class, () -> p.await(PATIENCE), "pending request of client " + i);
                Trust<Delegated.Cell> trust = trusts.get(i);
                assertThrows(TrusteeClosedException.class, () -> trust.apply(Delegated.READ, 0, PATIENCE), "later request of client " + i);
            }
            assertThrows(TrusteeClosedException.class, trustee::serveOnce);
            try (ComputeThread late = c.thread(REMOTE_NODE)) {
                assertThrows(TrusteeClosedException.class, () -> TrusteeClient.connect(late, trustee.ptr()));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldDropStagedRequestsAndRefuseLaterCallsWhenTheClientCloses(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = cluster(make); TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, 4, 4, 1)) {
            long ptr = runner.ptr();
            c.runOnThreads(new int[] {REMOTE_NODE}, (index, t) -> {
                Trust<Delegated.Cell> counter;
                PendingApply staged;
                try (TrusteeClient client = TrusteeClient.connect(t, ptr)) {
                    counter = client.trust(0);
                    assertEquals(0, counter.apply(Delegated.FETCH_AND_ADD, 1, PATIENCE));
                    staged = counter.applyAsync(Delegated.FETCH_AND_ADD, 100);
                    client.close();
                    client.close();
                    assertThrows(TrusteeClosedException.class, () -> client.trust(0), "a trust after the close");
                    assertThrows(TrusteeClosedException.class, client::flush, "a flush after the close");
                }
                assertThrows(TrusteeClosedException.class, () -> staged.await(PATIENCE), "a request staged, not sent");
                assertThrows(TrusteeClosedException.class, staged::poll, "a poll of it");
                assertThrows(TrusteeClosedException.class, () -> counter.apply(Delegated.READ, 0, PATIENCE));
                assertThrows(TrusteeClosedException.class, () -> counter.applyAsync(Delegated.READ, 0));
                try (TrusteeClient other = TrusteeClient.connect(t, ptr)) {
                    assertEquals(1, other.<Delegated.Cell>trust(0).apply(Delegated.READ, 0, PATIENCE),
                            "the staged request was dropped at the close, never sent");
                }
            });
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldNameMaxClientsAndTheConnectsWhenOneClientTooManyConnects(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = cluster(make); TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, 2, 2, 1)) {
            long ptr = runner.ptr();
            c.runOnThreads(new int[] {REMOTE_NODE}, (index, t) -> {
                TrusteeClient.connect(t, ptr).close();
                try (TrusteeClient open = TrusteeClient.connect(t, ptr)) {
                    BadArgumentException e = assertThrows(BadArgumentException.class, () -> TrusteeClient.connect(t, ptr),
                            "maxClients = 2 counts the closed client: a third connect finds no place");
                    assertTrue(e.getMessage().contains("maxClients = 2"), "names the parameter and its value: " + e.getMessage());
                    assertTrue(e.getMessage().contains("connect number 3"), "says how many connects came: " + e.getMessage());
                    assertEquals(0, open.<Delegated.Cell>trust(0).apply(Delegated.READ, 0, PATIENCE), "the open client works on");
                }
            });
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldThrowTypedErrorsWhenInputIsBad(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = cluster(make); TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, 2, 2, 1)) {
            long ptr = runner.ptr();
            c.runOnThreads(new int[] {REMOTE_NODE}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                Trust<Delegated.Cell> counter = client.trust(0);
                DelegatedOperationException unknownOp = assertThrows(DelegatedOperationException.class,
                        () -> counter.apply(77, 0, PATIENCE));
                assertTrue(unknownOp.getMessage().contains("77"), unknownOp.getMessage());
                DelegatedOperationException unknownProperty = assertThrows(DelegatedOperationException.class,
                        () -> client.<Delegated.Cell>trust(9).apply(Delegated.READ, 0, PATIENCE));
                assertTrue(unknownProperty.getMessage().contains("property 9"), unknownProperty.getMessage());
                assertThrows(DelegatedOperationException.class, () -> counter.apply(Delegated.THROW, 0, PATIENCE));
                assertEquals(0, counter.apply(Delegated.FETCH_AND_ADD, 1, PATIENCE), "the trustee serves on after an operation threw");
                BadArgumentException negative = assertThrows(BadArgumentException.class,
                        () -> counter.apply(Delegated.READ, 0, Duration.ofSeconds(-1)));
                assertTrue(negative.getMessage().contains("-1"), negative.getMessage());
                BadArgumentException badOp = assertThrows(BadArgumentException.class, () -> counter.apply(-3, 0, PATIENCE));
                assertTrue(badOp.getMessage().contains("-3"), badOp.getMessage());
                assertThrows(BadArgumentException.class, () -> counter.applyAsync(Trustee.MAX_OPERATIONS, 0));
                BadArgumentException badProperty = assertThrows(BadArgumentException.class, () -> client.trust(-2));
                assertTrue(badProperty.getMessage().contains("-2"), badProperty.getMessage());
                assertThrows(NullPointerException.class, () -> counter.apply(Delegated.READ, 0, null));
                PendingApply first = counter.applyAsync(Delegated.READ, 0);
                PendingApply second = counter.applyAsync(Delegated.READ, 0);
                assertThrows(BadArgumentException.class, () -> counter.applyAsync(Delegated.READ, 0), "more in flight than slots");
                assertEquals(1, first.await(PATIENCE));
                assertEquals(1, second.await(PATIENCE));
                assertThrows(StaleHandleException.class, () -> first.await(PATIENCE));
                assertThrows(StaleHandleException.class, first::poll);
            });
        }
        try (TestCluster c = cluster(make); ComputeThread t = c.thread(TRUSTEE_NODE)) {
            assertThrows(BadArgumentException.class, () -> Trustee.create(t, 0, 1));
            assertThrows(BadArgumentException.class, () -> Trustee.create(t, 1, Trustee.MAX_SLOTS_PER_CLIENT + 1));
            Trustee<Delegated.Cell> trustee = Trustee.create(t, 1, 1);
            Delegated.register(trustee);
            BadArgumentException twice = assertThrows(BadArgumentException.class,
                    () -> trustee.register(Delegated.READ, (cell, arg) -> 0));
            assertTrue(twice.getMessage().contains("opId " + Delegated.READ), twice.getMessage());
            assertThrows(BadArgumentException.class, () -> trustee.register(-1, (cell, arg) -> 0));
            assertThrows(NullPointerException.class, () -> trustee.entrust(null));
            assertThrows(BadArgumentException.class, () -> trustee.property(0));
            assertThrows(BadArgumentException.class, () -> trustee.serve(Duration.ofMillis(-5)));
            try (ComputeThread other = c.thread(REMOTE_NODE)) {
                TrusteeClient.connect(other, trustee.ptr());
                assertThrows(BadArgumentException.class, () -> TrusteeClient.connect(other, trustee.ptr()), "one client place");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldDropAPropertyWithItsLastReferenceAndRefuseItAfterwards(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = cluster(make); TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, 4, 2, 2)) {
            long ptr = runner.ptr();
            c.runOnThreads(new int[] {REMOTE_NODE}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                Counts before = Counts.of(t);
                Trust<Delegated.Cell> first = client.share(0, PATIENCE);
                assertEquals(new Counts(1, 0, 2, 0, 0, 0, 32), before.since(t), "share: one request, 2 WRITEs in 1 round trip");
                assertTrue(first.holdsReference());
                Trust<Delegated.Cell> second = client.share(0, PATIENCE);
                Trust<Delegated.Cell> borrowed = client.trust(0);
                assertFalse(borrowed.holdsReference());
                assertEquals(0, first.apply(Delegated.FETCH_AND_ADD, 5, PATIENCE));
                assertEquals(2, borrowed.apply(Delegated.RELEASE_TRUSTEES_REFERENCE, 0, PATIENCE),
                        "the trustee's own reference dropped: the two shares are left");
                before = Counts.of(t);
                assertEquals(1, first.release(PATIENCE), "one reference left");
                assertEquals(new Counts(1, 0, 2, 0, 0, 0, 32), before.since(t), "release: one request");
                assertFalse(first.holdsReference());
                BadArgumentException afterRelease = assertThrows(BadArgumentException.class,
                        () -> first.apply(Delegated.READ, 0, PATIENCE));
                assertTrue(afterRelease.getMessage().contains("property 0 was released"), afterRelease.getMessage());
                BadArgumentException twice = assertThrows(BadArgumentException.class, () -> first.release(PATIENCE));
                assertTrue(twice.getMessage().contains("released already"), twice.getMessage());
                BadArgumentException notHeld = assertThrows(BadArgumentException.class, () -> borrowed.release(PATIENCE));
                assertTrue(notHeld.getMessage().contains("trust()"), notHeld.getMessage());
                assertEquals(5, borrowed.apply(Delegated.READ, 0, PATIENCE), "alive while the second share holds it");
                assertFalse(runner.cells().get(0).closed);

                assertEquals(0, second.release(PATIENCE), "the last reference: the trustee drops the property");
                assertTrue(runner.cells().get(0).closed, "and closes it, in the pass that served the release");
                DelegatedOperationException gone = assertThrows(DelegatedOperationException.class,
                        () -> borrowed.apply(Delegated.READ, 0, PATIENCE));
                assertTrue(gone.getMessage().contains("property 0 was released"), gone.getMessage());
                assertThrows(DelegatedOperationException.class, () -> client.share(0, PATIENCE), "no share of a dropped property");
                DelegatedOperationException unknown = assertThrows(DelegatedOperationException.class, () -> client.share(7, PATIENCE));
                assertTrue(unknown.getMessage().contains("property 7"), unknown.getMessage());
                assertEquals(0, client.<Delegated.Cell>trust(1).apply(Delegated.FETCH_AND_ADD, 1, PATIENCE), "the other property lives on");
                assertFalse(runner.cells().get(1).closed);
            });
            long[] values = runner.stop(true);
            assertEquals(-1, values[0], "released");
            assertEquals(1, values[1]);
        }
        try (TestCluster c = cluster(make); ComputeThread t = c.thread(TRUSTEE_NODE)) {
            Trustee<Delegated.Cell> trustee = Trustee.create(t, 1, 1);
            Delegated.Cell cell = new Delegated.Cell();
            int id = trustee.entrust(cell);
            assertEquals(1, trustee.references(id), "the entrusting caller's reference");
            assertEquals(0, trustee.release(id));
            assertTrue(cell.closed);
            assertEquals(0, trustee.references(id));
            BadArgumentException released = assertThrows(BadArgumentException.class, () -> trustee.release(id));
            assertTrue(released.getMessage().contains("property " + id + " on trustee"), released.getMessage());
            assertThrows(BadArgumentException.class, () -> trustee.property(id));
            assertThrows(BadArgumentException.class, () -> trustee.references(3));
            assertEquals(id + 1, trustee.entrust(new Delegated.Cell()), "ids are not reused");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCostTwoWritesAndOneRoundTripRemotelyAndNoRdmaLocallyWhenApplying(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = cluster(make); TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, 4, 4, 1)) {
            long ptr = runner.ptr();
            c.runOnThreads(new int[] {REMOTE_NODE, TRUSTEE_NODE}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                Trust<Delegated.Cell> counter = client.trust(0);
                boolean remote = t.nodeId() != TRUSTEE_NODE;
                for (int i = 0; i < 5; i++) {
                    Counts before = Counts.of(t);
                    counter.apply(Delegated.FETCH_AND_ADD, 1, PATIENCE);
                    Counts cost = before.since(t);
                    assertEquals(remote ? new Counts(1, 0, 2, 0, 0, 0, 32) : new Counts(0, 0, 0, 0, 0, 0, 0), cost,
                            (remote ? "remote" : "local") + " apply");
                }
                Counts before = Counts.of(t);
                PendingApply[] inFlight = new PendingApply[client.slots()];
                for (int s = 0; s < inFlight.length; s++) {
                    inFlight[s] = counter.applyAsync(Delegated.FETCH_AND_ADD, 1);
                }
                for (PendingApply p : inFlight) {
                    p.await(PATIENCE);
                }
                Counts cost = before.since(t);
                int k = inFlight.length;
                assertEquals(remote ? new Counts(1, 0, 2L * k, 0, 0, 0, 32L * k) : new Counts(0, 0, 0, 0, 0, 0, 0), cost,
                        k + " async applies in one doorbell");
            });
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldSendOneDoorbellOfResponsesPerNodeInOneRoundTripWhenTheTrusteeServesAPass(Function<SimOptions, Fabric> make) {
        int slots = 3;
        int[] clientNodes = {0, 2, TRUSTEE_NODE, 0, 2};
        int remoteClients = 4;
        try (TestCluster c = cluster(make); ComputeThread t = c.thread(TRUSTEE_NODE)) {
            Trustee<Delegated.Cell> trustee = Delegated.oneCell(Trustee.create(t, clientNodes.length, slots));
            List<ComputeThread> threads = new ArrayList<>();
            List<PendingApply> pending = new ArrayList<>();
            try {
                for (int node : clientNodes) {
                    ComputeThread ct = c.thread(node);
                    threads.add(ct);
                    TrusteeClient client = TrusteeClient.connect(ct, trustee.ptr());
                    for (int s = 0; s < slots; s++) {
                        pending.add(client.<Delegated.Cell>trust(0).applyAsync(Delegated.FETCH_AND_ADD, 1));
                    }
                    client.flush();
                }
                Counts before = Counts.of(t);
                assertEquals(clientNodes.length * slots, trustee.serveOnce());
                long responses = (long) remoteClients * slots;
                assertEquals(new Counts(1, 0, 2 * responses, 0, 0, 0, 32 * responses), before.since(t),
                        "2 WRITEs per remote response, the batches of both nodes in one round trip, none for the local client");
                for (PendingApply p : pending) {
                    p.await(Duration.ZERO);
                }
            } finally {
                threads.forEach(ComputeThread::close);
            }
        }
    }

    /** On the simulator only, also in the verbs subclass: stopping a node's answers is the simulator's fault injection. */
    @ParameterizedTest
    @MethodSource("io.remus.core.testing.Fabrics#all")
    void shouldServeTheOtherClientsWhenAClientsNodeStopsAnswering(Function<SimOptions, Fabric> make) {
        int dead = 2;
        SimOptions options = SimOptions.defaults().withTransportTimeoutNanos(Duration.ofMillis(100).toNanos());
        try (TestCluster c = new TestCluster(make, options, 3, b -> b.segmentSize(4 << 20));
             ComputeThread t = c.thread(TRUSTEE_NODE); ComputeThread alive = c.thread(REMOTE_NODE);
             ComputeThread doomed = c.thread(dead)) {
            Trustee<Delegated.Cell> trustee = Delegated.oneCell(Trustee.create(t, 2, 2));
            Trust<Delegated.Cell> survivor = TrusteeClient.connect(alive, trustee.ptr()).trust(0);
            Trust<Delegated.Cell> lost = TrusteeClient.connect(doomed, trustee.ptr()).trust(0);
            PendingApply fromLost = lost.applyAsync(Delegated.FETCH_AND_ADD, 1);
            lost.client().flush();
            PendingApply fromSurvivor = survivor.applyAsync(Delegated.FETCH_AND_ADD, 1);
            survivor.client().flush();
            ((SimFabric) c.fabric()).stopAnswering(dead);
            assertEquals(2, trustee.serveOnce(), "both requests ran");
            assertEquals(1, trustee.droppedClients(), "the client on the silent node is given up");
            assertTrue(fromSurvivor.poll(), "the other client's response arrived");
            fromSurvivor.await(Duration.ZERO);
            PendingApply next = survivor.applyAsync(Delegated.READ, 0);
            survivor.client().flush();
            assertEquals(1, trustee.serveOnce());
            assertEquals(2, next.await(Duration.ZERO), "the trustee serves on");
            assertThrows(TrusteeTimeoutException.class, () -> fromLost.await(Duration.ofMillis(50)));
            trustee.close();
            assertThrows(TrusteeClosedException.class, () -> survivor.apply(Delegated.READ, 0, PATIENCE));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldPollResponsesInTheTrusteesMemoryWhenTheClientsNodeHasNoMemory(Function<SimOptions, Fabric> make) throws Exception {
        int bare = 2;
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3,
                b -> b.segmentSize(4 << 20).memoryNodes(new NodeRange(0, 1)));
             TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, 2, 2, 1)) {
            long ptr = runner.ptr();
            c.runOnThreads(new int[] {bare}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                Trust<Delegated.Cell> counter = client.trust(0);
                for (int i = 0; i < 5; i++) {
                    Counts before = Counts.of(t);
                    assertEquals(i, counter.apply(Delegated.FETCH_AND_ADD, 1, PATIENCE));
                    Counts cost = before.since(t);
                    long polls = cost.reads() - 1;
                    assertTrue(polls >= 1, "at least one poll: " + cost);
                    assertEquals(new Counts(polls + 2, polls + 1, 2, 0, 0, 16 * polls + 16, 32), cost,
                            "2 WRITEs, one 16-byte READ per poll and one of the result");
                }
                PendingApply a = counter.applyAsync(Delegated.READ, 0);
                PendingApply b = counter.applyAsync(Delegated.FETCH_AND_ADD, 10);
                assertEquals(5, a.await(PATIENCE));
                assertEquals(5, b.await(PATIENCE));
                assertThrows(DelegatedOperationException.class, () -> counter.apply(99, 0, PATIENCE));
                assertFalse(client.isTrusteeClosed());
            });
            assertEquals(15, runner.stop(true)[0]);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFailWithTrusteeClosedWhenAClientWithoutMemoryWaitsOnAClosedTrustee(Function<SimOptions, Fabric> make) {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3,
                b -> b.segmentSize(4 << 20).memoryNodes(new NodeRange(0, 1)));
             ComputeThread t = c.thread(TRUSTEE_NODE); ComputeThread bare = c.thread(2)) {
            Trustee<Delegated.Cell> trustee = Delegated.oneCell(Trustee.create(t, 1, 2));
            Trust<Delegated.Cell> counter = TrusteeClient.connect(bare, trustee.ptr()).trust(0);
            PendingApply served = counter.applyAsync(Delegated.FETCH_AND_ADD, 1);
            PendingApply pending = counter.applyAsync(Delegated.FETCH_AND_ADD, 1);
            counter.client().flush();
            trustee.serveOnce();
            assertEquals(0, served.await(PATIENCE));
            PendingApply late = counter.applyAsync(Delegated.READ, 0);
            counter.client().flush();
            trustee.close();
            assertEquals(1, pending.await(PATIENCE), "served before the close");
            assertThrows(TrusteeClosedException.class, () -> late.await(PATIENCE), "posted after the last pass");
            assertThrows(TrusteeClosedException.class, () -> counter.apply(Delegated.READ, 0, PATIENCE), "a later call");
            assertTrue(counter.client().isTrusteeClosed());
        }
    }
}
