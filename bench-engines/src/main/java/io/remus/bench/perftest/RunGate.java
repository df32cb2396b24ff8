package io.remus.bench.perftest;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;

/**
 * Lets a harness outside the JVM run something else between a client's runs (sizes, or the runs of
 * {@code --repeat}) while this JVM waits: softroce/perftest-compare with {@code PERF_SAME_JVM=1} runs
 * perftest there, with our JVMs stopped, so that the two tools alternate run by run in one boot
 * without a JVM start-up between them. Off unless the system property {@value #PROPERTY} names a
 * directory holding two FIFOs, {@value #TO_HARNESS} and {@value #TO_CLIENT}. Then, before run
 * {@code k} (from 1), the client writes the line {@code ready k} to {@value #TO_HARNESS} and waits
 * for the line {@code go} on {@value #TO_CLIENT}; after the run it writes {@code done k}.
 *
 * <p>Every wait, opening a FIFO included, ends after {@link #WAIT_SECONDS} s with a
 * {@link BenchTimeoutException}; any line but {@code go} fails the run. Off, it costs one static
 * read per run.
 */
final class RunGate {
    /** The system property that names the directory of the two FIFOs. */
    static final String PROPERTY = "remus.bench.runGate";
    /** The FIFO the client writes its {@code ready} and {@code done} lines to. */
    static final String TO_HARNESS = "to-harness";
    /** The FIFO the client reads {@code go} from. */
    static final String TO_CLIENT = "to-client";
    /** The longest wait for the harness (it runs a whole other benchmark in between). */
    static final long WAIT_SECONDS = 900;

    private static Writer toHarness;
    private static BufferedReader toClient;
    private static String directory = System.getProperty(PROPERTY);

    private RunGate() {
    }

    /**
     * Before run {@code k}: says {@code ready k} and waits for {@code go}; nothing when off.
     *
     * @param k the run, from 1
     */
    static void beforeRun(int k) {
        if (!on()) {
            return;
        }
        say("ready " + k);
        String line = call(() -> toClient.readLine(), "waiting for go before run " + k);
        if (!"go".equals(line)) {
            throw new BenchFailedException(PROPERTY + ": expected 'go' before run " + k + ", got "
                    + (line == null ? "the end of " + TO_CLIENT : "'" + line + "'"));
        }
    }

    /**
     * After run {@code k}: says {@code done k}; nothing when off.
     *
     * @param k the run, from 1
     */
    static void afterRun(int k) {
        if (on()) {
            say("done " + k);
        }
    }

    /**
     * Uses these streams instead of the FIFOs (tests).
     *
     * @param lines the harness's side: what the client reads; null turns the gate off
     * @param out   where the client's lines go
     */
    static void use(BufferedReader lines, Writer out) {
        toClient = lines;
        toHarness = out;
        directory = null;
    }

    /**
     * Opens the FIFOs in {@code path} at the next run instead of the property's directory (tests).
     *
     * @param path the directory
     */
    static void useDirectory(String path) {
        toClient = null;
        toHarness = null;
        directory = path;
    }

    private static boolean on() {
        if (toClient != null) {
            return true;
        }
        if (directory == null || directory.isEmpty()) {
            return false;
        }
        Path dir = Path.of(directory);
        // the harness holds both FIFOs open read-write, so neither open waits; the timeout is for a harness that does not
        toHarness = new OutputStreamWriter(WindowMarks.open(dir.resolve(TO_HARNESS).toString(), WAIT_SECONDS),
                StandardCharsets.US_ASCII);
        toClient = call(() -> new BufferedReader(new InputStreamReader(
                new FileInputStream(dir.resolve(TO_CLIENT).toFile()), StandardCharsets.US_ASCII)),
                "opening " + dir.resolve(TO_CLIENT));
        return true;
    }

    private static void say(String line) {
        try {
            toHarness.write(line + "\n");
            toHarness.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(PROPERTY + ": cannot write '" + line + "'", e);
        }
    }

    private static <T> T call(Callable<T> blocking, String what) {
        try {
            return BoundedCall.within(blocking, WAIT_SECONDS, "remus-run-gate", PROPERTY + ": " + what,
                    PROPERTY + ": interrupted " + what);
        } catch (TimeoutException e) {
            throw new BenchTimeoutException(PROPERTY + ": no answer within " + WAIT_SECONDS + " s " + what);
        }
    }
}
