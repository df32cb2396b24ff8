package io.remus.examples;

import io.remus.core.shm.ShmFabric;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.Mpirun;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
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

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldReadTheSameTotalOnEveryNodeWhenMpirunStartsFourProcessesOnSharedMemory() throws Exception {
        Assumptions.assumeTrue(Mpirun.isInstalled(), Mpirun.MPIRUN + " is not installed (Open MPI)");
        Path dir = Fabrics.freshShmDirectory();
        try {
            Mpirun.Result run = Mpirun.run(RANKS, List.of("--enable-native-access=ALL-UNNAMED"), ClusterMain.class,
                    List.of("--fabric=shm", "--shm.dir=" + dir, "--seg-size=1M"), Duration.ofSeconds(120));
            String output = run.output();
            assertTrue(run.exited(), "mpirun ran past 120 s:\n" + output);
            assertEquals(0, run.exitCode(), "mpirun's exit status:\n" + output);
            int total = RANKS * (RANKS + 1) / 2;
            for (int rank = 0; rank < RANKS; rank++) {
                assertTrue(output.contains("node " + rank + " of " + RANKS + " read the counter: " + total), output);
            }
        } finally {
            ShmFabric.removeFiles(dir);
        }
    }
}
