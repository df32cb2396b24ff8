package io.remus.tools.cli;

import io.remus.core.BadArgumentException;
import io.remus.tools.lock.LockCsv;
import io.remus.tools.lock.LockGridPlot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code remus plot}: charts of benchmark output. {@code remus plot lock-grid CSV PNG} draws the
 * rows that {@code remus bench lock --csv} appended. Exit status 0 on success, 1 when the file
 * cannot be written, 2 for a missing or malformed CSV.
 */
@Command(name = "plot", mixinStandardHelpOptions = true, description = "Charts of benchmark output.",
        subcommands = PlotCommand.LockGrid.class)
public final class PlotCommand {
    /** {@code remus plot lock-grid CSV PNG}. */
    @Command(name = "lock-grid", mixinStandardHelpOptions = true,
            description = "Throughput over p_local per lock kind, one panel per fabric and key count (PNG).")
    static final class LockGrid implements java.util.concurrent.Callable<Integer> {
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
