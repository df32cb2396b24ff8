package io.remus.ds.cluster;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;

/**
 * {@link DataStructuresProcessesOnVerbsTest}'s processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build.
 */
class DataStructuresProcessesOnShmTest extends DataStructuresProcessesOnVerbsTest {
    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Test
    @Override
    void shouldCheckAsLinearizableWhenThreeProcessesShareEveryStructure() throws InterruptedException {
        super.shouldCheckAsLinearizableWhenThreeProcessesShareEveryStructure();
    }
}
