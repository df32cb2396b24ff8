package io.remus.bench.stats;

import io.remus.core.error.BadArgumentException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads a latency distribution from a text file in one of two formats, told apart by HdrHistogram's
 * header line ({@code Value Percentile TotalCount 1/(1-Percentile)}):
 * <ul>
 *   <li>HdrHistogram's percentile distribution, as {@code outputPercentileDistribution} writes it
 *       ({@code remus bench --hgrm}): after the header, rows of value (microseconds), percentile
 *       (a fraction), total count and, except on the 100 % row, {@code 1/(1-percentile)}; spaces
 *       or commas between the fields; {@code #} lines (the summary at the end) are skipped;</li>
 *   <li>one latency per line in microseconds, as perftest's raw per-iteration output is after
 *       cleaning; these are recorded into an HdrHistogram and its spectrum is taken
 *       ({@link PercentileDistribution#ofSamples}).</li>
 * </ul>
 * Blank lines are skipped in both. Every error names the file and, for a bad line, its number.
 */
public final class LatencyFiles {
    private static final String HEADER_WORD = "percentile";
    private static final int MAX_SHOWN = 60;

    private LatencyFiles() {
    }

    /**
     * Reads a file in either format.
     *
     * @param label the distribution's name
     * @param file  the file
     * @return the distribution
     * @throws BadArgumentException when the file cannot be read, a line cannot be parsed (naming the
     *                              line) or the file holds no latency
     */
    public static PercentileDistribution read(String label, Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new BadArgumentException(file + ": no such file");
        } catch (IOException e) {
            throw new BadArgumentException(file + ": cannot be read (" + e.getMessage() + ")");
        }
        return parse(label, file.toString(), lines);
    }

    /**
     * Parses a file's lines in either format.
     *
     * @param label the distribution's name
     * @param name  the file's name, for errors
     * @param lines the file's lines
     * @return the distribution
     * @throws BadArgumentException when a line cannot be parsed (naming the line) or there is no latency
     */
    public static PercentileDistribution parse(String label, String name, List<String> lines) {
        for (String line : lines) {
            String s = line.strip();
            if (!s.isEmpty() && !s.startsWith("#")) {
                return s.toLowerCase(Locale.ROOT).contains(HEADER_WORD) ? percentiles(label, name, lines)
                        : samples(label, name, lines);
            }
        }
        throw new BadArgumentException(name + ": no latencies in the file");
    }

    private static PercentileDistribution percentiles(String label, String name, List<String> lines) {
        List<double[]> rows = new ArrayList<>();
        boolean header = false;
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            if (!header) {
                header = true;
                continue;
            }
            String[] f = s.split("[\\s,]+");
            if (f.length < 3 || f.length > 4) {
                throw badLine(name, i, s, "expected value, percentile, total count and 1/(1-percentile)");
            }
            double value = number(name, i, s, f[0]);
            double percentile = number(name, i, s, f[1]);
            if (value < 0 || percentile < 0 || percentile > 1) {
                throw badLine(name, i, s, "a latency below 0 or a percentile outside [0, 1]");
            }
            if (!rows.isEmpty() && percentile < rows.getLast()[0]) {
                throw badLine(name, i, s, "the percentile falls below the line before");
            }
            rows.add(new double[] {percentile, value});
        }
        if (rows.isEmpty()) {
            throw new BadArgumentException(name + ": an HdrHistogram header and no percentile lines");
        }
        return new PercentileDistribution(label, rows.stream().mapToDouble(r -> r[0]).toArray(),
                rows.stream().mapToDouble(r -> r[1]).toArray());
    }

    private static PercentileDistribution samples(String label, String name, List<String> lines) {
        double[] samples = new double[lines.size()];
        int n = 0;
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            double us = number(name, i, s, s);
            if (us < 0) {
                throw badLine(name, i, s, "a latency below 0");
            }
            samples[n++] = us;
        }
        return PercentileDistribution.ofSamples(label, Arrays.copyOf(samples, n));
    }

    private static double number(String name, int index, String line, String field) {
        double v;
        try {
            v = Double.parseDouble(field);
        } catch (NumberFormatException e) {
            throw badLine(name, index, line, "'" + field + "' is not a number");
        }
        if (!Double.isFinite(v)) {
            throw badLine(name, index, line, "'" + field + "' is not a finite number");
        }
        return v;
    }

    private static BadArgumentException badLine(String name, int index, String line, String why) {
        String shown = line.length() > MAX_SHOWN ? line.substring(0, MAX_SHOWN) + "..." : line;
        return new BadArgumentException(name + " line " + (index + 1) + ": " + why + ": '" + shown + "'");
    }
}
