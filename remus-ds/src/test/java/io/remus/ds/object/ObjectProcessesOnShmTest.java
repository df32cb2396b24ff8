package io.remus.ds.object;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@link ObjectProcessesOnVerbsTest}'s processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build.
 */
class ObjectProcessesOnShmTest extends ObjectProcessesOnVerbsTest {
    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Test
    @Override
    void shouldCheckAsLinearizableAndKeepTheOthersWithinTheirBoundWhileOneProcessIsStopped(@TempDir Path dir)
            throws InterruptedException, IOException {
        super.shouldCheckAsLinearizableAndKeepTheOthersWithinTheirBoundWhileOneProcessIsStopped(dir);
    }
}
