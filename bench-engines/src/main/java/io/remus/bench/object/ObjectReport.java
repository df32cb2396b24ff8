package io.remus.bench.object;

import java.util.List;

/**
 * The runs of one {@code remus bench object} invocation.
 *
 * @param fabric the fabric's name
 * @param notes  facts a reader needs to weigh the numbers (fabric choice, host load, the stall)
 * @param runs   the runs, in run order
 */
public record ObjectReport(String fabric, List<String> notes, List<ObjectRun> runs) {
    /** Copies the lists. */
    public ObjectReport {
        notes = List.copyOf(notes);
        runs = List.copyOf(runs);
    }
}
