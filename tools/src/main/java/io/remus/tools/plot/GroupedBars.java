package io.remus.tools.plot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Runs as grouped bars: one group per group name and one bar per series name, each in the order it first
 * appears among the runs; one {@link BarPanel} per measure, on a logarithmic axis, with no bar (NaN) where a
 * group has no run of a series.
 *
 * @param <R> the run type
 */
public final class GroupedBars<R> {
    private final List<? extends R> runs;
    private final String groupLabel;
    private final Function<? super R, String> group;
    private final Function<? super R, String> series;
    private final List<String> groups = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    /**
     * @param runs       the runs
     * @param groupLabel what the groups are, under the category axis
     * @param group      a run's group name
     * @param series     a run's series name
     */
    public GroupedBars(List<? extends R> runs, String groupLabel, Function<? super R, String> group,
                       Function<? super R, String> series) {
        this.runs = List.copyOf(runs);
        this.groupLabel = groupLabel;
        this.group = group;
        this.series = series;
        for (R r : runs) {
            if (!groups.contains(group.apply(r))) {
                groups.add(group.apply(r));
            }
            if (!names.contains(series.apply(r))) {
                names.add(series.apply(r));
            }
        }
    }

    /**
     * @param title its title
     * @param axis  the value axis' label
     * @param value a run's value
     * @return the panel of one measure
     */
    public BarPanel panel(String title, String axis, ToDoubleFunction<? super R> value) {
        double[][] values = new double[names.size()][groups.size()];
        for (double[] row : values) {
            Arrays.fill(row, Double.NaN);
        }
        for (R r : runs) {
            values[names.indexOf(series.apply(r))][groups.indexOf(group.apply(r))] = value.applyAsDouble(r);
        }
        return new BarPanel(title, groupLabel, axis, groups, names, values, true);
    }
}
