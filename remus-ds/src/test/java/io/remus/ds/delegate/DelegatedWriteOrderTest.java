package io.remus.ds.delegate;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Verdict;
import io.remus.check.spec.CounterSpec;
import io.remus.core.ComputeThread;
import io.remus.core.WriteOrder;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.testing.Contention;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Delegation under the library's ordering rule for WRITEs, on the simulator with the WRITEs of one doorbell
 * landing later one first ({@link SimOptions#withReorderWrites}): requests and responses are two WRITEs in
 * one doorbell, so the trustee sees request sequences before their bodies and clients see response sequences
 * before theirs. The counter's histories stay linearizable and both guards fire (the trustee's and the
 * clients' {@code orderViolations()}); with {@link WriteOrder#COMPLETION} on both sides no violation is ever
 * counted; and a trustee twin without the guard ({@link GuardlessTrustee}), and clients without theirs
 * ({@link TrusteeClient#dropGuard()}), are caught by the same check.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DelegatedWriteOrderTest {
    private static final int TRUSTEE_NODE = 1;
    private static final int OPS_PER_THREAD = 60;
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));

    private static SimOptions reordering() {
        return SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true).withReorderWrites(true);
    }

    /** A history's check and the guards' counts. */
    private record Outcome(CheckResult check, long trusteeViolations, long clientViolations) {
    }

    /**
     * Three client threads (two on other nodes than the trustee's, one on its node) apply fetch-and-adds and
     * reads to one delegated counter, recorded and checked against {@link CounterSpec}.
     */
    private static Outcome history(long seed, TrusteeRunner.Maker maker, WriteOrder clientOrder) throws Exception {
        return history(seed, maker, clientOrder, false);
    }

    /** @param guardlessClients whether the clients are broken twins that take a response as soon as its sequence is there */
    private static Outcome history(long seed, TrusteeRunner.Maker maker, WriteOrder clientOrder, boolean guardlessClients)
            throws Exception {
        int threads = 3;
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder[] recorders = new History.Recorder[threads];
        for (int i = 0; i < threads; i++) {
            recorders[i] = history.recorder(i);
        }
        AtomicLong clientViolations = new AtomicLong();
        long trusteeViolations;
        try (TestCluster c = new TestCluster(SimFabric::new, reordering(), 3, b -> b.segmentSize(4 << 20));
             TrusteeRunner runner = new TrusteeRunner(c, TRUSTEE_NODE, threads, 2, 1, maker)) {
            long ptr = runner.ptr();
            c.runOnThreads(Contention.spread(threads, 3), (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr, clientOrder);
                assertEquals(clientOrder, client.writeOrder());
                if (guardlessClients) {
                    client.dropGuard();
                }
                Trust<Delegated.Cell> cell = client.trust(0);
                History.Recorder r = recorders[index];
                SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + index);
                try {
                    for (int i = 0; i < OPS_PER_THREAD; i++) {
                        Contention.maybeYield();
                        if (rnd.nextBoolean()) {
                            long delta = 1 + rnd.nextInt(3);
                            int op = r.invoke(CounterSpec.FETCH_AND_ADD, delta);
                            r.respond(op, rnd.nextInt(3) == 0 ? cell.applyAsync(Delegated.FETCH_AND_ADD, delta).await(PATIENCE)
                                    : cell.apply(Delegated.FETCH_AND_ADD, delta, PATIENCE));
                        } else {
                            int op = r.invoke(CounterSpec.READ);
                            r.respond(op, cell.apply(Delegated.READ, 0, PATIENCE));
                        }
                    }
                } finally {
                    clientViolations.addAndGet(client.orderViolations());
                }
            });
            runner.stop(true);
            trusteeViolations = runner.orderViolations();
        }
        CheckResult result = CHECKER.check(history.operations(), new CounterSpec());
        assertTrue(result.verdict() != Verdict.UNKNOWN, "seed " + seed + ": the checker ran out of its budget: " + result);
        return new Outcome(result, trusteeViolations, clientViolations.get());
    }

    @Test
    void shouldStayLinearizableAndCountViolationsWhenTheWritesOfOneDoorbellLandOutOfOrder() throws Exception {
        long trustee = 0;
        long clients = 0;
        for (long seed = 1; seed <= 6 && (trustee == 0 || clients == 0); seed++) {
            Outcome o = history(seed, Trustee::create, WriteOrder.ONE_DOORBELL);
            assertEquals(Verdict.LINEARIZABLE, o.check().verdict(), "seed " + seed + ": " + o.check());
            trustee += o.trusteeViolations();
            clients += o.clientViolations();
        }
        assertTrue(trustee > 0, "the trustee never saw a request's sequence before its body: its guard was not exercised");
        assertTrue(clients > 0, "no client saw a response's sequence before its body: their guard was not exercised");
    }

    @Test
    void shouldCountNoViolationWithTheCompletionOrderOnBothSides() throws Exception {
        for (long seed = 1; seed <= 2; seed++) {
            Outcome o = history(seed, (t, maxClients, slots) -> Trustee.create(t, maxClients, slots, 0, WriteOrder.COMPLETION),
                    WriteOrder.COMPLETION);
            assertEquals(Verdict.LINEARIZABLE, o.check().verdict(), "seed " + seed + ": " + o.check());
            assertEquals(0, o.trusteeViolations(), "seed " + seed + ": requests' bodies completed before their sequences");
            assertEquals(0, o.clientViolations(), "seed " + seed + ": responses' bodies completed before their sequences");
        }
    }

    @Test
    void shouldCatchTheTrusteeTwinWithoutTheGuardWhenTheWritesOfOneDoorbellLandOutOfOrder() throws Exception {
        int caught = 0;
        for (long seed = 1; seed <= 6 && caught == 0; seed++) {
            if (history(seed, GuardlessTrustee::make, WriteOrder.ONE_DOORBELL).check().verdict() == Verdict.NOT_LINEARIZABLE) {
                caught++;
            }
        }
        assertTrue(caught > 0, "the check never caught a trustee that serves a request whose sequence landed before its body");
    }

    @Test
    void shouldCatchClientTwinsWithoutTheGuardWhenTheWritesOfOneDoorbellLandOutOfOrder() throws Exception {
        int caught = 0;
        for (long seed = 1; seed <= 6 && caught == 0; seed++) {
            if (history(seed, Trustee::create, WriteOrder.ONE_DOORBELL, true).check().verdict() == Verdict.NOT_LINEARIZABLE) {
                caught++;
            }
        }
        assertTrue(caught > 0, "the check never caught clients that take a response whose sequence landed before its body");
    }

    /**
     * A deliberately broken trustee: it serves a request as soon as its sequence word is there, without
     * looking at the check word, so it can run what the slot held before the body landed.
     */
    private static final class GuardlessTrustee<T> extends Trustee<T> {
        private GuardlessTrustee(ComputeThread thread, long ptr, int maxClients, int slots) {
            super(thread, ptr, thread.localSegment(ptr, blockBytes(maxClients, slots, 0)), maxClients, slots, 0);
        }

        static <T> Trustee<T> make(ComputeThread thread, int maxClients, int slots) {
            return new GuardlessTrustee<>(thread, allocate(thread, maxClients, slots, 0), maxClients, slots);
        }

        @Override
        boolean bodyLanded(long check, long sequence) {
            return true;
        }
    }
}
