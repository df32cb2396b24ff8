package io.remus.bench.lock;

import java.util.List;
import java.util.OptionalDouble;

/**
 * ALock's throughput over the spin and MCS locks at a grid point of a {@code remus bench lock} report.
 *
 * @param point the grid point
 * @param spin  over the spin lock's, or empty when either did not run
 * @param mcs   over the MCS lock's, or empty when either did not run
 */
public record Speedup(GridPoint point, OptionalDouble spin, OptionalDouble mcs) {
    /**
     * @param report runs
     * @return one per grid point of its runs ({@link GridPoint#of}), in the order the points first ran
     */
    public static List<Speedup> of(LockReport report) {
        return GridPoint.of(report).stream().map(p -> new Speedup(p,
                report.alockSpeedup("spin", p.pLocal(), p.keys()), report.alockSpeedup("mcs", p.pLocal(), p.keys())))
                .toList();
    }
}
