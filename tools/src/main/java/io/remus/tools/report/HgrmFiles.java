package io.remus.tools.report;

import io.remus.bench.stats.LatencyResult;

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
 * {@code lat-64.hgrm}); runs repeated with {@code --repeat} to one file per run ({@code lat-64-run2.hgrm}).
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
        return write(file, results, 1);
    }

    /**
     * @param file    the file, or the pattern for several sizes or runs
     * @param results the results, each size's {@code repeat} runs in a row
     * @param repeat  how many runs of each size there are
     * @return the files written
     * @throws IOException when a file cannot be written
     */
    public static List<Path> write(Path file, List<LatencyResult> results, int repeat) throws IOException {
        List<Path> written = new ArrayList<>();
        for (int k = 0; k < results.size(); k++) {
            LatencyResult r = results.get(k);
            Path target = results.size() == 1 ? file
                    : repeat > 1 ? perRun(file, r.bytes(), k % repeat + 1) : perSize(file, r.bytes());
            try (PrintStream out = new PrintStream(Files.newOutputStream(target), false, "UTF-8")) {
                r.histogram().outputPercentileDistribution(out, NANOS_PER_USEC);
                if (out.checkError()) {
                    throw new IOException("cannot write " + target + " (disk full or I/O error)");
                }
            }
            written.add(target);
        }
        return written;
    }

    static Path perSize(Path file, int bytes) {
        return withSuffix(file, "-" + bytes);
    }

    static Path perRun(Path file, int bytes, int run) {
        return withSuffix(file, "-" + bytes + "-run" + run);
    }

    private static Path withSuffix(Path file, String suffix) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String named = dot <= 0 ? name + suffix : name.substring(0, dot) + suffix + name.substring(dot);
        return file.resolveSibling(named);
    }
}
