package io.remus.ds.testing;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Specification;
import io.remus.check.spec.SetSpec;
import io.remus.core.ComputeThread;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeRun;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.testing.Straddles;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.ds.set.LazyListSet;
import io.remus.ds.set.RemoteSet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Linearizability histories run under the simulator's deterministic virtual-time scheduler: one seed
 * decides the whole run (the scheduler's choices among threads ready at the same virtual time, each
 * worker's operation mix, the simulated addresses), so a history found wrong is rerun exactly by its
 * seed. A {@link Scenario} says what the workers do; {@link #run} builds a fresh simulated cluster inside
 * the scheduler, starts one worker per thread with {@link ThreadTime#newThread}, records every
 * operation with {@link HistoryClock#NANO_TIME} (the virtual clock), and checks the history with
 * remus-check's {@link LinearizabilityChecker} afterwards, on the host.
 *
 * <p>{@link #seeds} gives the seeds of a suite, or only the one named by the system property
 * {@value #SEED_PROPERTY} ({@code -Dremus.vt.seed=N}) to rerun one seed.
 */
public final class VirtualTimeHistories {
    /** The system property that names the one seed to run. */
    public static final String SEED_PROPERTY = "remus.vt.seed";
    /** How long (virtual time) the harness waits for a worker to end. */
    public static final Duration WORKER_BOUND = Duration.ofSeconds(60);
    /** How long one run may take on the host before it ends typed. */
    public static final Duration HOST_BUDGET = Duration.ofSeconds(60);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));

    private VirtualTimeHistories() {
    }

    /** What one history runs. */
    public interface Scenario {
        /** @return the object's name, for messages */
        String name();

        /** @return the sequential specification the history is checked against */
        Specification<?> spec();

        /** @return whether the history is checked key by key ({@link LinearizabilityChecker#checkByKey}) */
        default boolean byKey() {
            return false;
        }

        /** @return the simulator's knobs, before {@link #run} moves the segments to the seed's simulated addresses */
        SimOptions options();

        /** @return the number of nodes */
        default int nodes() {
            return 3;
        }

        /** Changes to the test cluster's configuration. */
        default void configure(ClusterConfig.Builder b) {
            b.segmentSize(4 << 20);
        }

        /** @return how many workers run for {@code seed} */
        int threads(long seed);

        /** @return the node of worker {@code index} */
        default int nodeOf(int index) {
            return index % nodes();
        }

        /** @return the node of the thread that creates the object and stays for the run ({@link #serve}) */
        default int homeNode() {
            return 0;
        }

        /**
         * Creates the object with {@code home}, the compute thread of the run's first thread, which stays
         * open until the workers ended.
         *
         * @return what the workers attach to (a root pointer)
         */
        long create(ComputeThread home) throws Exception;

        /**
         * One worker's operations, each recorded into {@code r}.
         *
         * @param rnd the worker's random stream, from the seed
         */
        void work(int index, ComputeThread t, long ptr, History.Recorder r, SplittableRandom rnd) throws Exception;

        /**
         * What the first thread does while the workers run (a trustee serves here), until {@code workersEnded};
         * nothing by default.
         */
        default void serve(ComputeThread home, long ptr, BooleanSupplier workersEnded) throws Exception {
        }
    }

    /**
     * One history and what the run did.
     *
     * @param seed       the seed
     * @param operations the recorded operations
     * @param endNanos   the run's last virtual time
     * @param switches   the scheduler's thread switches
     * @param rdma       the workers' RDMA operations, summed
     * @param result     the checker's verdict
     */
    public record Outcome(long seed, List<Operation> operations, long endNanos, long switches, Counts rdma, CheckResult result) {
        /** @return the history as text, one operation a line with its virtual invocation and response times */
        public String historyText() {
            return operations.stream().map(Operation::toString).collect(Collectors.joining("\n"));
        }
    }

    /**
     * @param suite the seeds the suite runs
     * @return {@code suite}, or only the seed of {@value #SEED_PROPERTY} where that property is set
     */
    public static long[] seeds(long[] suite) {
        String one = System.getProperty(SEED_PROPERTY);
        if (one == null || one.isBlank()) {
            return suite.clone();
        }
        return new long[] {Long.parseLong(one.trim())};
    }

    /** @return seeds {@code 1..n}, or only the seed of {@value #SEED_PROPERTY} */
    public static long[] seeds(int n) {
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = i + 1;
        }
        return seeds(s);
    }

    /**
     * Runs one history of {@code scenario} for {@code seed} under the virtual-time scheduler and checks it.
     *
     * @return the history, the run's figures and the verdict
     */
    public static Outcome run(Scenario scenario, long seed) throws Exception {
        int threads = scenario.threads(seed);
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder[] recorders = new History.Recorder[threads];
        for (int i = 0; i < threads; i++) {
            recorders[i] = history.recorder(i);
        }
        Counts[] counts = new Counts[threads];
        Throwable[] failures = new Throwable[threads];
        SimOptions options = Straddles.across(scenario.options(), seed, scenario.nodes());
        long[] run = schedule(seed, () -> {
            try (TestCluster c = new TestCluster(SimFabric::new, options, scenario.nodes(), scenario::configure, WORKER_BOUND);
                 ComputeThread home = c.thread(scenario.homeNode())) {
                long ptr = scenario.create(home);
                AtomicInteger ended = new AtomicInteger();
                List<Thread> workers = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    int index = i;
                    Thread w = ThreadTime.newThread(scenario.name() + "-worker-" + index, () -> {
                        try (ComputeThread t = c.thread(scenario.nodeOf(index))) {
                            Counts before = Counts.of(t);
                            scenario.work(index, t, ptr, recorders[index], new SplittableRandom(seed * 1_000_003L + index));
                            counts[index] = before.since(t);
                        } catch (Throwable e) {
                            failures[index] = e;
                        } finally {
                            ended.incrementAndGet();
                        }
                    });
                    w.setDaemon(true);
                    workers.add(w);
                }
                for (Thread w : workers) {
                    w.start();
                }
                scenario.serve(home, ptr, () -> ended.get() == threads);
                for (int i = 0; i < threads; i++) {
                    if (!ThreadTime.join(workers.get(i), WORKER_BOUND.toNanos())) {
                        throw new AssertionError(rerun(scenario, seed) + ": worker " + i + " did not end within "
                                + WORKER_BOUND + " of virtual time");
                    }
                }
            }
        });
        for (int i = 0; i < threads; i++) {
            if (failures[i] != null) {
                throw new AssertionError(rerun(scenario, seed) + ": worker " + i + " failed: " + failures[i], failures[i]);
            }
        }
        List<Operation> operations = history.operations();
        CheckResult result = check(operations, scenario.spec(), scenario.byKey());
        Counts rdma = new Counts(0, 0, 0, 0, 0, 0, 0);
        for (Counts k : counts) {
            rdma = new Counts(rdma.roundTrips() + k.roundTrips(), rdma.reads() + k.reads(), rdma.writes() + k.writes(),
                    rdma.compareAndSwaps() + k.compareAndSwaps(), rdma.fetchAndAdds() + k.fetchAndAdds(),
                    rdma.bytesRead() + k.bytesRead(), rdma.bytesWritten() + k.bytesWritten());
        }
        return new Outcome(seed, operations, run[0], run[1], rdma, result);
    }

    private static <S> CheckResult check(List<Operation> operations, Specification<S> spec, boolean byKey) {
        return byKey ? CHECKER.checkByKey(operations, spec) : CHECKER.check(operations, spec);
    }

    /** Runs {@code body} as the first thread of a virtual-time run of {@code seed}; returns its end time and switches. */
    private static long[] schedule(long seed, VirtualTimeScheduler.Body body) {
        VirtualTimeRun run = VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed).withHostBudget(HOST_BUDGET), body);
        return new long[] {run.endNanos(), run.switches()};
    }

    /** Opens a handle on a set: creates a set on node 1 when {@code create}, else attaches to {@code ptr}. */
    @FunctionalInterface
    public interface SetOpener {
        RemoteSet open(ComputeThread t, Reclaimer r, long ptr, boolean create);
    }

    /**
     * The sets' history (as the host-time set histories run it): 3 or 4 workers over the 3 nodes, each 60
     * operations, 40 % contains, 30 % add and 30 % remove over 5 keys, the set on node 1.
     *
     * @param epochs whether the workers reclaim with {@link EpochReclaimer} freeing as they go (else {@link NeverReclaimer})
     */
    public static Scenario setMix(String name, SimOptions options, boolean epochs, SetOpener opener) {
        return new Scenario() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Specification<?> spec() {
                return new SetSpec();
            }

            @Override
            public SimOptions options() {
                return options;
            }

            @Override
            public int threads(long seed) {
                return 3 + (int) (seed % 2);
            }

            @Override
            public int homeNode() {
                return 1;
            }

            @Override
            public long create(ComputeThread home) throws Exception {
                try (NeverReclaimer r = new NeverReclaimer(home); RemoteSet s = opener.open(home, r, 0, true)) {
                    return s.ptr();
                }
            }

            @Override
            public void work(int index, ComputeThread t, long ptr, History.Recorder rec, SplittableRandom rnd) throws Exception {
                EpochOptions options = EpochOptions.defaults().withBytes(4L * LazyListSet.NODE_BYTES, 64L * LazyListSet.NODE_BYTES);
                try (Reclaimer reclaimer = epochs ? new EpochReclaimer(t, t.allocator(), options) : new NeverReclaimer(t);
                     RemoteSet set = opener.open(t, reclaimer, ptr, false)) {
                    for (int i = 0; i < 60; i++) {
                        if (rnd.nextInt(3) == 0) {
                            ThreadTime.yield();
                        }
                        long key = 1 + rnd.nextInt(5);
                        int pick = rnd.nextInt(10);
                        if (pick < 4) {
                            int op = rec.invoke(SetSpec.CONTAINS, key);
                            rec.respond(op, set.contains(key) ? 1 : 0);
                        } else if (pick < 7) {
                            int op = rec.invoke(SetSpec.ADD, key);
                            rec.respond(op, set.insert(key) ? 1 : 0);
                        } else {
                            int op = rec.invoke(SetSpec.REMOVE, key);
                            rec.respond(op, set.remove(key) ? 1 : 0);
                        }
                    }
                }
            }
        };
    }

    /** @return a message part that names the seed and how to rerun it */
    public static String rerun(Scenario scenario, long seed) {
        return scenario.name() + ", seed " + seed + " (rerun with -D" + SEED_PROPERTY + "=" + seed + ")";
    }
}
