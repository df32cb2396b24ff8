package io.remus.ds.cluster;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@link StructuresKilledProcessOnVerbsTest}'s processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build.
 * The killed process is no memory node, so none of the structures' memory goes with it (on this fabric a
 * dead process's memory would stay in any case).
 */
class StructuresKilledProcessOnShmTest extends StructuresKilledProcessOnVerbsTest {
    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Test
    @Override
    void shouldKeepEveryStructureLinearizableAndUsableWhenAProcessIsKilledInTheMiddleOfAnOperation(@TempDir Path dir)
            throws InterruptedException, IOException {
        super.shouldKeepEveryStructureLinearizableAndUsableWhenAProcessIsKilledInTheMiddleOfAnOperation(dir);
    }
}
