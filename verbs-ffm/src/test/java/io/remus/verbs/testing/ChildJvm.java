package io.remus.verbs.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running a main class on this JVM's class path, with native access enabled, for
 * multi-process tests on one device (each process opens its own device context).
 *
 * <p>The child inherits the environment (so {@code REMUS_TEST_DEVICE} and the cluster variables
 * carry over) and the {@code remus.*} system properties. Its stdout and stderr are captured
 * together in a temporary file. {@link #close()} always kills it (and its descendants) and
 * deletes the file: start children in try-with-resources.
 *
 * <p>{@value #OPTIONS_VARIABLE}, where set, holds JVM options (separated by white space) every child gets
 * before its class path: the Soft-RoCE guests set it to C1-only compilation and the serial collector, which
 * roughly halve a short-lived child's processor time there, where every guest thread shares one emulated
 * processor.
 */
public final class ChildJvm implements AutoCloseable {
    /** The environment variable whose JVM options every child gets. */
    public static final String OPTIONS_VARIABLE = "REMUS_CHILD_JVM_OPTIONS";

    private final Process process;
    private final Path output;
    private final String description;

    private ChildJvm(Process process, Path output, String description) {
        this.process = process;
        this.output = output;
        this.description = description;
    }

    /**
     * What a finished (or killed) child left.
     *
     * @param exitCode its exit status; meaningless where {@code timedOut}
     * @param timedOut whether it was killed for running past the timeout
     * @param output   its stdout and stderr, interleaved
     */
    public record Result(int exitCode, boolean timedOut, String output) {
        /** @return whether it exited by itself with status 0 */
        public boolean succeeded() {
            return !timedOut && exitCode == 0;
        }
    }

    /**
     * Starts a child JVM.
     *
     * @param mainClass the class whose {@code main} it runs (on this JVM's class path)
     * @param args      the arguments to {@code main}
     * @return the running child
     * @throws UncheckedIOException if it cannot be started
     */
    public static ChildJvm start(Class<?> mainClass, String... args) {
        Objects.requireNonNull(mainClass, "mainClass");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        String options = System.getenv(OPTIONS_VARIABLE);
        if (options != null && !options.isBlank()) {
            command.addAll(List.of(options.strip().split("\\s+")));
        }
        System.getProperties().stringPropertyNames().stream()
                .filter(name -> name.startsWith("remus."))
                .sorted()
                .forEach(name -> command.add("-D" + name + "=" + System.getProperty(name)));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        String description = mainClass.getSimpleName() + " " + String.join(" ", args);
        try {
            Path output = Files.createTempFile("remus-child-", ".log");
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
            return new ChildJvm(process, output, description);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a child JVM for " + description, e);
        }
    }

    /**
     * Starts a child JVM, waits for it and kills it if it runs past {@code timeout}.
     *
     * @param timeout   how long it may run
     * @param mainClass the class whose {@code main} it runs
     * @param args      the arguments to {@code main}
     * @return what it left
     * @throws InterruptedException if interrupted while waiting
     */
    public static Result run(Duration timeout, Class<?> mainClass, String... args) throws InterruptedException {
        try (ChildJvm child = start(mainClass, args)) {
            return child.await(timeout);
        }
    }

    /**
     * Waits for the child to exit, killing it if it runs past {@code timeout}.
     *
     * @param timeout how long to wait
     * @return its exit status and output
     * @throws InterruptedException if interrupted while waiting (the child is left to {@link #close()})
     */
    public Result await(Duration timeout) throws InterruptedException {
        boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!exited) {
            kill();
        }
        return new Result(exited ? process.exitValue() : -1, !exited, readOutput());
    }

    /** @return the process id, for messages */
    public long pid() {
        return process.pid();
    }

    /** Kills the child and its descendants if still running, and deletes the captured output. */
    @Override
    public void close() {
        try {
            kill();
        } finally {
            try {
                Files.deleteIfExists(output);
            } catch (IOException ignored) {
                output.toFile().deleteOnExit();
            }
        }
    }

    @Override
    public String toString() {
        return "child JVM " + process.pid() + " (" + description + ")";
    }

    private void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String readOutput() {
        try {
            return Files.readString(output);
        } catch (IOException e) {
            return "(output unreadable: " + e + ")";
        }
    }
}
