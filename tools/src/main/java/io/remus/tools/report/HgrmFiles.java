package io.remus.tools.report;

import io.remus.tools.stats.LatencyResult;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes latency histograms as HdrHistogram percentile distributions ({@code .hgrm}, values in
 * usec), the format HdrHistogram's plotter reads. One size goes to the given file; several sizes go
 * to one file per size, the size inserted before the extension ({@code lat.hgrm} gives
 * {@code lat-64.hgrm}).
 */
public final class HgrmFiles {
    private static final double NANOS_PER_USEC = 1000.0;

    private HgrmFiles() {
    }

    /**
     * @param file    the file, or the pattern for several sizes
     * @param results the results
     * @return the files written
     * @throws IOException when a file cannot be written
     */
    public static List<Path> write(Path file, List<LatencyResult> results) throws IOException {
        List<Path> written = new ArrayList<>();
        for (LatencyResult r : results) {
            Path target = results.size() == 1 ? file : perSize(file, r.bytes());
            try (PrintStream out = new PrintStream(Files.newOutputStream(target), false, "UTF-8")) {
                r.histogram().outputPercentileDistribution(out, NANOS_PER_USEC);
            }
            written.add(target);
        }
        return written;
    }

    static Path perSize(Path file, int bytes) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String sized = dot <= 0 ? name + "-" + bytes : name.substring(0, dot) + "-" + bytes + name.substring(dot);
        return file.resolveSibling(sized);
    }
}
