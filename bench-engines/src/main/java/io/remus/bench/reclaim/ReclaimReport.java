package io.remus.bench.reclaim;


import java.util.List;

/**
 * The runs of one {@code remus bench reclaim} invocation.
 *
 * @param fabric the fabric's name
 * @param notes  facts a reader needs to weigh the numbers (fabric choice, host load)
 * @param runs   the runs, in run order
 */
public record ReclaimReport(String fabric, List<String> notes, List<ReclaimBenchmarkResult> runs) {
    /** Copies the lists. */
    public ReclaimReport {
        notes = List.copyOf(notes);
        runs = List.copyOf(runs);
    }

    /**
     * @param r a run
     * @return its label: the reclaimer's flag name, with {@code +stall} when a thread stalled
     */
    public static String label(ReclaimBenchmarkResult r) {
        return r.config().reclaimer().flagName() + (r.config().stall() ? "+stall" : "");
    }
}
