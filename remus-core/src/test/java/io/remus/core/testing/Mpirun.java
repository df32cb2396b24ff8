package io.remus.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a Java main class as several processes under the host's real Open MPI {@code mpirun}, each a JVM
 * with this test's class path, and collects their combined output. Tests that use it skip themselves, with
 * the reason, where {@link #isInstalled()} is false.
 */
public final class Mpirun {
    /** Open MPI's launcher, where Debian's {@code openmpi-bin} installs it. */
    public static final Path MPIRUN = Path.of("/usr/bin/mpirun");

    /**
     * How a run ended.
     *
     * @param exited   whether mpirun exited within the bound (else it and its processes were killed)
     * @param exitCode mpirun's exit status, -1 when it did not exit
     * @param output   the combined output of mpirun and every rank
     */
    public record Result(boolean exited, int exitCode, String output) {
    }

    private Mpirun() {
    }

    /** {@return whether the host has an executable {@link #MPIRUN}} */
    public static boolean isInstalled() {
        return Files.isExecutable(MPIRUN);
    }

    /**
     * Runs {@code mainClass} as {@code ranks} processes ({@code --oversubscribe}, and
     * {@code --allow-run-as-root} when this JVM runs as root), each with small-heap JVM options,
     * {@code extraJvmOptions}, this JVM's class path and {@code args}.
     *
     * @param ranks           the number of processes
     * @param extraJvmOptions JVM options besides the fixed ones
     * @param mainClass       the class whose main each rank runs
     * @param args            the arguments of each rank's main
     * @param bound           how long mpirun may run before it and its processes are killed
     * @return how it ended
     */
    public static Result run(int ranks, List<String> extraJvmOptions, Class<?> mainClass, List<String> args,
                             Duration bound) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(MPIRUN.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.add("--allow-run-as-root");
        }
        command.addAll(List.of("--oversubscribe", "-np", Integer.toString(ranks),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m"));
        command.addAll(extraJvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(args);
        Path log = Files.createTempFile("remus-mpirun-", ".log");
        try {
            Process mpirun = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            boolean exited = mpirun.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
            if (!exited) {
                mpirun.descendants().forEach(ProcessHandle::destroyForcibly);
                mpirun.destroyForcibly();
            }
            return new Result(exited, exited ? mpirun.exitValue() : -1, Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            try {
                Files.deleteIfExists(log);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
