package io.remus.alock.cluster;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;

/**
 * {@link MultiProcessLockTest}'s three processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build.
 */
class MultiProcessLockOnShmTest extends MultiProcessLockTest {
    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Test
    @Override
    void shouldKeepMutualExclusionWhenThreeProcessesLockKeysHomedOnEveryNode() throws InterruptedException {
        super.shouldKeepMutualExclusionWhenThreeProcessesLockKeysHomedOnEveryNode();
    }
}
