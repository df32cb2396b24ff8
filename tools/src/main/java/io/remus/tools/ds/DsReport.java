package io.remus.tools.ds;

import io.remus.bench.structure.DsRun;
import java.util.List;

/**
 * The runs of one {@code remus bench ds} invocation.
 *
 * @param fabric the fabric's name
 * @param notes  facts a reader needs to weigh the numbers (fabric choice, host load, cluster)
 * @param runs   the runs, in run order
 */
public record DsReport(String fabric, List<String> notes, List<DsRun> runs) {
    /** Copies the lists. */
    public DsReport {
        notes = List.copyOf(notes);
        runs = List.copyOf(runs);
    }
}
