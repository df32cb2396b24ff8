package io.remus.bench.reclaim;


import java.util.List;

/**
 * The runs of one {@code remus bench reclaim} invocation.
 *
 * @param fabric the fabric's name
 * @param notes  facts a reader needs to weigh the numbers (fabric choice, host load)
 * @param runs   the runs, in run order
 * @param time   how the runs' seconds, throughputs and sample times were timed when not by the wall clock:
 *               {@link io.remus.bench.engines.SimTime#label()} ({@code "virtual time, model connectx5, CPU charged as
 *               ..., seed 1"}), or null for the wall clock
 */
public record ReclaimReport(String fabric, List<String> notes, List<ReclaimBenchmarkResult> runs, String time) {
    /** Copies the lists. */
    public ReclaimReport {
        notes = List.copyOf(notes);
        runs = List.copyOf(runs);
    }

    /**
     * A report of wall-clock runs.
     *
     * @param fabric the fabric's name
     * @param notes  facts a reader needs to weigh the numbers
     * @param runs   the runs, in run order
     */
    public ReclaimReport(String fabric, List<String> notes, List<ReclaimBenchmarkResult> runs) {
        this(fabric, notes, runs, null);
    }

    /**
     * @param r a run
     * @return its label: the reclaimer's flag name, with {@code +stall} when a thread stalled
     */
    public static String label(ReclaimBenchmarkResult r) {
        return r.config().reclaimer().flagName() + (r.config().stall() ? "+stall" : "");
    }
}
