package io.remus.examples;

import io.remus.core.shm.ShmFabric;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ClusterMain} unchanged, as four processes under a real {@code mpirun -np 4} on this host, on the
 * shared-memory fabric (no RDMA device): every node reads the counter's total, 1 + 2 + 3 + 4. Skipped, with
 * the reason, where Open MPI's {@code mpirun} is not installed.
 */
class ClusterMainMpirunTest {
    private static final int RANKS = 4;
    private static final Path MPIRUN = Path.of("/usr/bin/mpirun");

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldReadTheSameTotalOnEveryNodeWhenMpirunStartsFourProcessesOnSharedMemory() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(MPIRUN), MPIRUN + " is not installed (Open MPI)");
        Path shm = Path.of("/dev/shm");
        Path dir = Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "remus-example-") : Files.createTempDirectory("remus-example-");
        try {
            List<String> command = new ArrayList<>(List.of(MPIRUN.toString()));
            if ("root".equals(System.getProperty("user.name"))) {
                command.add("--allow-run-as-root");
            }
            command.addAll(List.of("--oversubscribe", "-np", Integer.toString(RANKS),
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m", "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), ClusterMain.class.getName(),
                    "--fabric=shm", "--shm.dir=" + dir, "--seg-size=1M"));
            Path log = Files.createTempFile("remus-example-mpirun-", ".log");
            Process mpirun = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            boolean exited = mpirun.waitFor(120, TimeUnit.SECONDS);
            if (!exited) {
                mpirun.descendants().forEach(ProcessHandle::destroyForcibly);
                mpirun.destroyForcibly();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Files.deleteIfExists(log);
            assertTrue(exited, "mpirun ran past 120 s:\n" + output);
            assertEquals(0, mpirun.exitValue(), "mpirun's exit status:\n" + output);
            int total = RANKS * (RANKS + 1) / 2;
            for (int rank = 0; rank < RANKS; rank++) {
                assertTrue(output.contains("node " + rank + " of " + RANKS + " read the counter: " + total), output);
            }
        } finally {
            ShmFabric.removeFiles(dir);
        }
    }
}
