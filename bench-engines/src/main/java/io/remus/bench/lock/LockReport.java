package io.remus.bench.lock;

import io.remus.bench.engines.SimTime;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The runs of one {@code remus bench lock} invocation, with notes on how they ran.
 *
 * @param fabric the fabric every run used
 * @param notes  how the fabric was chosen, what was ignored, the host's load
 * @param runs   the measured points in the order they ran
 * @param time   how the runs' seconds, throughputs and latencies were timed when not by the wall clock:
 *               {@link SimTime#label()} ({@code "virtual time, model connectx5, CPU charged as ..., seed 1"}),
 *               or null for the wall clock
 */
public record LockReport(String fabric, List<String> notes, List<LockRun> runs, String time) {
    /** Copies the lists. */
    public LockReport {
        notes = List.copyOf(notes);
        runs = List.copyOf(runs);
    }

    /**
     * A report of wall-clock runs.
     *
     * @param fabric the fabric every run used
     * @param notes  how the fabric was chosen, what was ignored, the host's load
     * @param runs   the measured points in the order they ran
     */
    public LockReport(String fabric, List<String> notes, List<LockRun> runs) {
        this(fabric, notes, runs, null);
    }

    /**
     * ALock's throughput over another lock's at one grid point, both measured in this report.
     *
     * @param baseline the other lock's command-line name
     * @param pLocal   the grid point's local probability
     * @param keys     the grid point's key count
     * @return alock's throughput divided by the baseline's, or empty when either is missing or zero
     */
    public OptionalDouble alockSpeedup(String baseline, double pLocal, int keys) {
        double a = throughput("alock", pLocal, keys);
        double b = throughput(baseline, pLocal, keys);
        return a > 0 && b > 0 ? OptionalDouble.of(a / b) : OptionalDouble.empty();
    }

    private double throughput(String lock, double pLocal, int keys) {
        for (LockRun r : runs) {
            if (r.config().kind().cliName().equals(lock) && r.config().pLocal() == pLocal && r.config().keys() == keys) {
                return r.throughput();
            }
        }
        return 0;
    }
}
