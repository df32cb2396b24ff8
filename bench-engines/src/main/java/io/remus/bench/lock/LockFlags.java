package io.remus.bench.lock;

import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.bench.engines.RunFlags;
import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.remus.bench.engines.RunFlags.require;

/**
 * The lock benchmark's flags as given, checked against the engine's rules and turned into one
 * {@link LockBenchmarkConfig} per run ({@link #configs}). Every error is a {@link BadArgumentException} whose
 * message names the flag ({@code --nodes}, {@code --threads}, {@code --lock}, ...) and the bad value.
 *
 * @param threads            {@code --threads}: workers per node
 * @param locks              {@code --lock}: the lock kinds' names, as given
 * @param pLocal             {@code --p-local}: the fractions of picks on the worker's node
 * @param keys               {@code --keys}: the lock table sizes
 * @param localBudget        {@code --local-budget}, or null for {@link LockOptions}' default
 * @param remoteBudget       {@code --remote-budget}, or null for {@link LockOptions}' default
 * @param criticalSectionOps {@code --cs-ops}
 * @param seconds            {@code -D}
 * @param warmupSeconds      {@code --warmup}
 * @param seed               {@code --seed}
 */
public record LockFlags(int threads, List<String> locks, List<Double> pLocal, List<Integer> keys, Long localBudget,
                        Long remoteBudget, int criticalSectionOps, double seconds, double warmupSeconds, long seed) {
    /** The most nodes of a run. */
    public static final int MAX_NODES = 64;
    /** The most workers per node. */
    public static final int MAX_THREADS = 256;
    /** The most locks in the table. */
    public static final int MAX_KEYS = 1 << 20;
    /** The most worker threads of a run, all nodes together: each spins while it waits for a lock. */
    public static final int MAX_TOTAL_THREADS = 1024;

    /** Copies the lists. */
    public LockFlags {
        locks = List.copyOf(locks);
        pLocal = List.copyOf(pLocal);
        keys = List.copyOf(keys);
    }

    /**
     * One configuration per run, in run order: for each {@code --p-local}, each {@code --keys}, each lock kind.
     *
     * @param nodes the node count: {@code --nodes}, or the cluster's size with one process per node
     * @return the configurations
     * @throws BadArgumentException naming the flag and its value when one is out of range
     */
    public List<LockBenchmarkConfig> configs(int nodes) {
        require(nodes >= 1 && nodes <= MAX_NODES, "--nodes must be 1.." + MAX_NODES + ", got " + nodes);
        require(threads >= 1 && threads <= MAX_THREADS, "--threads must be 1.." + MAX_THREADS + ", got " + threads);
        require(nodes * threads <= MAX_TOTAL_THREADS, "--nodes " + nodes + " x --threads " + threads + " = "
                + nodes * threads + " worker threads, each spinning while it waits: at most " + MAX_TOTAL_THREADS);
        Duration duration = RunFlags.positiveSeconds("-D", seconds);
        RunFlags.checkWarmup(warmupSeconds);
        LockOptions defaults = LockOptions.defaults();
        long local = localBudget != null ? localBudget : defaults.localBudget();
        long remote = remoteBudget != null ? remoteBudget : defaults.remoteBudget();
        require(local >= 1 && remote >= 1, "--local-budget and --remote-budget must be at least 1, got " + local
                + " and " + remote);
        List<LockKind> kinds = new ArrayList<>();
        for (String name : locks) {
            try {
                kinds.add(LockKind.parse(name.strip()));
            } catch (BadArgumentException e) {
                throw new BadArgumentException("--lock: " + e.getMessage());
            }
        }
        for (double p : pLocal) {
            require(p >= 0 && p <= 1, "--p-local must be in [0, 1], got " + p);
        }
        for (int k : keys) {
            require(k >= nodes && k <= MAX_KEYS, "--keys must be " + nodes + " (one per node).." + MAX_KEYS + ", got " + k);
        }
        require(criticalSectionOps >= 0 && criticalSectionOps <= LockBenchmarkConfig.MAX_CRITICAL_SECTION_OPS,
                "--cs-ops must be 0.." + LockBenchmarkConfig.MAX_CRITICAL_SECTION_OPS + ", got " + criticalSectionOps);
        List<LockBenchmarkConfig> configs = new ArrayList<>();
        for (double p : pLocal) {
            for (int k : keys) {
                for (LockKind kind : kinds) {
                    configs.add(new LockBenchmarkConfig(kind, nodes, threads, p, k, local, remote, duration, seed,
                            criticalSectionOps));
                }
            }
        }
        return configs;
    }

    /**
     * @param nodes {@code --nodes}
     * @param cpus  the CPUs this JVM may use
     * @return a warning, one line, when the run has more than twice as many worker threads as CPUs (every worker
     *         spins while it waits, so a descheduled lock holder holds up its waiters for a time slice, and the run
     *         measures the scheduler more than the locks), else null
     */
    public String oversubscribed(int nodes, int cpus) {
        int total = nodes * threads;
        if (total <= 2 * cpus) {
            return null;
        }
        return "--nodes " + nodes + " x --threads " + threads + " = " + total + " spinning worker threads on " + cpus
                + " CPU(s): waiters spin through the time slices of descheduled lock holders, so progress is slow and "
                + "the figures measure the scheduler";
    }
}
