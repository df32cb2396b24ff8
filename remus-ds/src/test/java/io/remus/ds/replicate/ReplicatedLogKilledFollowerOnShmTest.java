package io.remus.ds.replicate;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@link ReplicatedLogKilledFollowerOnVerbsTest}'s processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build. The killed
 * follower's memory stays (its files outlive it), so the leader's WRITEs to it still land and it need not be
 * detached; it applies nothing after its kill.
 */
class ReplicatedLogKilledFollowerOnShmTest extends ReplicatedLogKilledFollowerOnVerbsTest {
    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Override
    boolean deadMemoryGoes() {
        return false;
    }

    @Test
    @Override
    void shouldKeepCommittingWithTheLivingFollowerWhenTheOtherIsKilledMidWorkload(@TempDir Path dir)
            throws InterruptedException, IOException {
        super.shouldKeepCommittingWithTheLivingFollowerWhenTheOtherIsKilledMidWorkload(dir);
    }
}
