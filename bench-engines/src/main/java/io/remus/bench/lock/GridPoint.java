package io.remus.bench.lock;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One point of the lock grid: a local probability and a key count, which every lock kind runs.
 *
 * @param pLocal the local probability
 * @param keys   locks in the table
 */
public record GridPoint(double pLocal, int keys) {
    /**
     * @param report runs
     * @return the distinct points of its runs, in the order they first ran
     */
    public static List<GridPoint> of(LockReport report) {
        Set<GridPoint> points = new LinkedHashSet<>();
        for (LockRun r : report.runs()) {
            points.add(new GridPoint(r.config().pLocal(), r.config().keys()));
        }
        return List.copyOf(points);
    }
}
