package io.remus.tools.ds;

import io.remus.bench.structure.DsRun;
import java.util.List;

/**
 * The runs of one {@code remus bench ds} invocation.
 *
 * @param fabric the fabric's name
 * @param notes  facts a reader needs to weigh the numbers (fabric choice, host load, cluster)
 * @param runs   the runs, in run order
 * @param time   how the runs' seconds, throughputs and latencies were timed when not by the wall clock:
 *               {@link io.remus.bench.engines.SimTime#label()} ({@code "virtual time, model connectx5, CPU charged as
 *               ..., seed 1"}), or null for the wall clock
 */
public record DsReport(String fabric, List<String> notes, List<DsRun> runs, String time) {
    /** Copies the lists. */
    public DsReport {
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
    public DsReport(String fabric, List<String> notes, List<DsRun> runs) {
        this(fabric, notes, runs, null);
    }
}
