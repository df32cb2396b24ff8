package io.remus.tools.plot;

import io.remus.core.error.BadArgumentException;

import java.util.List;

/**
 * One panel of a {@link BarChart}: a group of bars per category, one bar per series, on a
 * logarithmic or linear value axis.
 *
 * @param title         the panel's title
 * @param categoryLabel the category axis's label
 * @param axisLabel     the value axis's label (with its unit)
 * @param categories the groups along the horizontal axis
 * @param series     the bars in each group, named in the legend
 * @param values     {@code values[series][category]}; NaN or a value that is not positive on a
 *                   logarithmic axis leaves that bar out
 * @param logarithmic whether the value axis is logarithmic
 */
public record BarPanel(String title, String categoryLabel, String axisLabel, List<String> categories, List<String> series,
                       double[][] values, boolean logarithmic) {
    /**
     * Checks the shape.
     *
     * @throws BadArgumentException when {@code values} is not series by categories, both are empty, or
     *                              two series have one name
     */
    public BarPanel {
        categories = List.copyOf(categories);
        series = List.copyOf(series);
        if (categories.isEmpty() || series.isEmpty() || values.length != series.size()) {
            throw new BadArgumentException("a bar panel needs categories, series, and one value row per series");
        }
        for (double[] row : values) {
            if (row.length != categories.size()) {
                throw new BadArgumentException("a bar panel needs one value per category in every series");
            }
        }
        if (series.stream().distinct().count() != series.size()) {
            throw new BadArgumentException("a bar panel's series need distinct names, got " + series);
        }
        values = values.clone();
    }
}
