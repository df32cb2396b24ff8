package io.remus.verbs.ffi.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Compiles the C probe with gcc against the installed headers and runs it.
 *
 * <p>Without gcc or the rdma-core headers it fails with what to install; it never skips.
 */
public final class GccProbe {
    /** What to do when gcc or the headers are missing. */
    public static final String INSTALL_HINT = "install gcc libibverbs-dev librdmacm-dev (bin/install-deps)";
    private static final long COMPILE_TIMEOUT_S = 120;
    private static final long RUN_TIMEOUT_S = 30;

    private GccProbe() {
    }

    /**
     * What one probe produced.
     *
     * @param output        the probe's standard output lines (empty when it did not compile)
     * @param compileErrors gcc's error lines (empty when it compiled)
     * @param directory     where probe.c and the binary are, for a maintainer to look at
     */
    public record Result(List<String> output, List<String> compileErrors, Path directory) {
    }

    /**
     * Writes {@code source} to {@code directory} (created if needed), compiles it with
     * {@code gcc -std=gnu11 -Wall} (in the C locale, so diagnostics are plain ASCII) and runs it.
     *
     * @param source    C source text
     * @param directory where probe.c, the binary and the outputs go (overwritten)
     * @return the output, or gcc's errors
     * @throws IllegalStateException when gcc or the headers are missing, or the probe fails to run
     */
    public static Result run(String source, Path directory) {
        try {
            Path dir = Files.createDirectories(directory);
            Path c = dir.resolve("probe.c");
            Path binary = dir.resolve("probe");
            Files.writeString(c, source, StandardCharsets.UTF_8);
            Files.deleteIfExists(binary);
            Process gcc;
            try {
                ProcessBuilder builder = new ProcessBuilder("gcc", "-std=gnu11", "-Wall", "-o", binary.toString(),
                        c.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("gcc.out").toFile());
                builder.environment().put("LC_ALL", "C");
                gcc = builder.start();
            } catch (IOException e) {
                throw new IllegalStateException("gcc not found: " + INSTALL_HINT, e);
            }
            List<String> diagnostics = finish(gcc, dir.resolve("gcc.out"), COMPILE_TIMEOUT_S, "gcc");
            if (gcc.exitValue() != 0) {
                if (diagnostics.stream().anyMatch(l -> l.contains("fatal error") && l.contains("No such file"))) {
                    throw new IllegalStateException("headers missing (" + String.join("; ", diagnostics.stream()
                            .filter(l -> l.contains("fatal error")).toList()) + "): " + INSTALL_HINT);
                }
                List<String> errors = diagnostics.stream().filter(l -> l.contains("error")).toList();
                return new Result(List.of(), errors.isEmpty() ? diagnostics : errors, dir);
            }
            Process probe = new ProcessBuilder(binary.toString()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("probe.out").toFile()).start();
            List<String> output = finish(probe, dir.resolve("probe.out"), RUN_TIMEOUT_S, "probe");
            if (probe.exitValue() != 0) {
                throw new IllegalStateException("probe " + binary + " exited with " + probe.exitValue() + ": " + output);
            }
            return new Result(output, List.of(), dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> finish(Process process, Path output, long timeoutSeconds, String what)
            throws IOException {
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(what + " did not finish in " + timeoutSeconds + " s");
            }
            return Files.readAllLines(output, StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException(what + " interrupted", e);
        }
    }
}
