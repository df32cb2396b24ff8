package io.remus.tools.cli;

import io.remus.core.error.BadArgumentException;
import io.remus.tools.lock.LockCsv;
import io.remus.tools.lock.LockGridPlot;
import io.remus.bench.stats.LatencyFiles;
import io.remus.bench.stats.PercentileDistribution;
import io.remus.tools.plot.LatencyPlot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code remus plot}: charts of benchmark output, drawn with XChart.
 * <ul>
 *   <li>{@code remus plot lock-grid CSV PNG} draws the rows that {@code remus bench lock --csv}
 *       appended. Exit status 0 on success, 1 when the file cannot be written, 2 for a missing or
 *       malformed CSV.</li>
 *   <li>{@code remus plot latency --out FILE.png [--title TEXT] LABEL=FILE...} draws latency
 *       percentile distributions on one chart, one series per label; each file is an HdrHistogram
 *       percentile distribution ({@code remus bench --hgrm}) or one latency per line in microseconds
 *       ({@link LatencyFiles}). Exit status 0 on success, 1 with a one-line {@code remus: ...} error
 *       for bad input (a missing file, a line that cannot be parsed, an argument without
 *       {@code LABEL=}, an {@code --out} that cannot be written).</li>
 * </ul>
 */
@Command(name = "plot", mixinStandardHelpOptions = true, description = "Charts of benchmark output.",
        subcommands = {PlotCommand.LockGrid.class, PlotCommand.Latency.class})
public final class PlotCommand {
    /** The title of {@code plot latency} without {@code --title}. */
    static final String DEFAULT_LATENCY_TITLE = "latency by percentile";

    /** Creates the command; picocli adds its subcommands. */
    public PlotCommand() {
    }

    /** {@code remus plot latency --out FILE.png [--title TEXT] LABEL=FILE...}. */
    @Command(name = "latency", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Latency percentile distributions on one chart (PNG), one series per LABEL. FILE is an "
                    + "HdrHistogram percentile distribution ('remus bench --hgrm') or one latency per line in "
                    + "microseconds (perftest's raw output, cleaned).")
    static final class Latency implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--out", paramLabel = "FILE.png", description = "The image to write (required).")
        Path out;

        @Option(names = "--title", paramLabel = "TEXT", description = "The chart's title (default: \"" + DEFAULT_LATENCY_TITLE + "\").")
        String title;

        @Parameters(arity = "0..*", paramLabel = "LABEL=FILE", description = "A series: its name in the legend and its file.")
        List<String> inputs = new ArrayList<>();

        @Override
        public Integer call() throws IOException {
            if (out == null) {
                throw new BadArgumentException("plot latency needs --out FILE.png");
            }
            if (inputs.isEmpty()) {
                throw new BadArgumentException("plot latency needs at least one LABEL=FILE");
            }
            OutputFiles.checkWritable("--out", out);
            List<PercentileDistribution> series = new ArrayList<>();
            for (String input : inputs) {
                int eq = input.indexOf('=');
                if (eq <= 0 || eq == input.length() - 1) {
                    throw new BadArgumentException("'" + input + "' is not LABEL=FILE");
                }
                series.add(LatencyFiles.read(input.substring(0, eq), Path.of(input.substring(eq + 1))));
            }
            LatencyPlot.write(title != null ? title : DEFAULT_LATENCY_TITLE, "latency [us]", series, out);
            spec.commandLine().getOut().println("wrote " + out + " (" + series.size() + " series)");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code remus plot lock-grid CSV PNG}. */
    @Command(name = "lock-grid", mixinStandardHelpOptions = true,
            description = "Throughput over p_local per lock kind, one panel per fabric and key count (PNG).")
    static final class LockGrid implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "CSV", description = "Rows written by 'remus bench lock --csv'.")
        Path csv;

        @Parameters(index = "1", paramLabel = "PNG", description = "The image to write.")
        Path png;

        @Override
        public Integer call() throws IOException {
            OutputFiles.checkWritable("PNG", png);
            List<LockCsv.Row> rows;
            try {
                rows = LockCsv.parse(Files.readAllLines(csv, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(), "cannot read " + csv + ": " + e.getMessage());
            } catch (BadArgumentException e) {
                throw new ParameterException(spec.commandLine(), csv + ": " + e.getMessage());
            }
            if (rows.isEmpty()) {
                throw new ParameterException(spec.commandLine(), csv + " has no rows");
            }
            LockGridPlot.write(rows, png);
            spec.commandLine().getOut().println("wrote " + png + " (" + rows.size() + " rows)");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
