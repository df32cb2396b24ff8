package io.remus.bench.churn;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@link ProcessCrashReclaimOnVerbsTest}'s three processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build.
 * The killed process is compute-only, so its memory, which on this fabric would outlive it, holds none of
 * the shared array.
 */
class ProcessCrashReclaimOnShmTest extends ProcessCrashReclaimOnVerbsTest {
    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Test
    @Override
    void shouldKeepReclaimingAndLoseNoDataWhenAProcessIsKilledMidRun(@TempDir Path dir)
            throws InterruptedException, IOException {
        super.shouldKeepReclaimingAndLoseNoDataWhenAProcessIsKilledMidRun(dir);
    }
}
