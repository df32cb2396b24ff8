package io.remus.bench.object;

import java.util.List;

/**
 * The runs of one {@code remus bench object} invocation.
 *
 * @param fabric the fabric's name
 * @param notes  facts a reader needs to weigh the numbers (fabric choice, host load, the stall)
 * @param runs   the runs, in run order
 * @param time   how the runs' seconds, throughputs, latencies and stall were timed when not by the wall clock:
 *               {@link io.remus.bench.engines.SimTime#label()} ({@code "virtual time, model connectx5, CPU charged as
 *               ..., seed 1"}), or null for the wall clock
 */
public record ObjectReport(String fabric, List<String> notes, List<ObjectRun> runs, String time) {
    /** Copies the lists. */
    public ObjectReport {
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
    public ObjectReport(String fabric, List<String> notes, List<ObjectRun> runs) {
        this(fabric, notes, runs, null);
    }
}
