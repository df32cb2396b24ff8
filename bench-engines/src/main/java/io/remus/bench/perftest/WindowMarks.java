package io.remus.bench.perftest;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Marks the edges of a client's measured window for a tool outside the JVM that counts what the
 * machine executes in between (softroce/diagnostics/insn-count: a QEMU plugin that counts the guest's
 * instructions, and a reader that runs its marker instruction for every line it gets). Off unless
 * the system property {@value #PROPERTY} names a file, usually a FIFO: then the client writes the
 * line {@code begin} when its measured window starts (after the warm-up) and {@code end} when its
 * measured operations are done. A duration-mode bandwidth run's window as marked also holds its
 * trailing margin.
 *
 * <p>Writing the first line opens the file; a FIFO's open waits for its reader, at most
 * {@link #OPEN_TIMEOUT_SECONDS} s, and then the run fails with a {@link BenchFailedException}. The
 * marks cost nothing when off (one static read per window) and one {@code write} each when on.
 */
final class WindowMarks {
    /** The system property that names the file the marks go to. */
    static final String PROPERTY = "remus.bench.windowMarks";
    /** How long opening the file may wait for a FIFO's reader. */
    static final long OPEN_TIMEOUT_SECONDS = 10;

    private static Consumer<String> sink = toFile(System.getProperty(PROPERTY));
    private static boolean inside;
    private static boolean held;

    private WindowMarks() {
    }

    /** Marks the start of a measured window; nothing when off, held, or when a window is already open. */
    static void begin() {
        if (sink != null && !inside && !held) {
            inside = true;
            sink.accept("begin");
        }
    }

    /** Marks the end of the open measured window; nothing when off or when none is open. */
    static void end() {
        if (sink != null && inside) {
            inside = false;
            sink.accept("end");
        }
    }

    /**
     * Holds back {@link #begin()} while a warm-up runs windows of its own that are not measured
     * (duration-mode bandwidth's rehearsal rounds).
     *
     * @param hold true to hold the marks back, false to let them through again
     */
    static void hold(boolean hold) {
        held = hold;
    }

    /**
     * Sends later marks to {@code lines} instead (tests).
     *
     * @param lines where the mark lines go; null turns the marks off
     */
    static void use(Consumer<String> lines) {
        sink = lines;
        inside = false;
        held = false;
    }

    /**
     * @param path the file the lines go to, opened at the first line; null or empty for none
     * @return a sink that writes each line to {@code path}, or null
     */
    static Consumer<String> toFile(String path) {
        if (path == null || path.isEmpty()) {
            return null;
        }
        FileOutputStream[] out = new FileOutputStream[1];
        return line -> {
            try {
                if (out[0] == null) {
                    out[0] = open(path, OPEN_TIMEOUT_SECONDS);
                }
                out[0].write((line + "\n").getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                throw new UncheckedIOException(PROPERTY + ": cannot write to " + path, e);
            }
        };
    }

    /** Opens {@code path} for appending, waiting at most {@code timeoutSeconds} for a FIFO's reader. */
    static FileOutputStream open(String path, long timeoutSeconds) {
        try {
            return BoundedCall.within(() -> new FileOutputStream(path, true), timeoutSeconds, "remus-window-marks-open",
                    PROPERTY + ": cannot open " + path, PROPERTY + ": interrupted while opening " + path);
        } catch (TimeoutException e) {
            throw new BenchFailedException(PROPERTY + ": " + path + " did not open within " + timeoutSeconds
                    + " s (a FIFO needs its reader running first)");
        }
    }
}
