package io.remus.core.verbs;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;

/**
 * {@link PeerRestartOnVerbsTest} on this host's shared-memory fabric ({@link io.remus.core.shm.ShmFabric}), with
 * its assertions: no RDMA device, so it runs in every build. A killed process's memory stays readable here
 * until its node opens again ({@link io.remus.core.shm.ShmDeadProcessTest}), so a read while it is down may
 * return the former pattern; once the restarted process opened its node, no read does.
 */
class PeerRestartOnShmTest extends PeerRestartOnVerbsTest {
    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Test
    @Override
    void shouldThrowPeerRestartedOnceThenReadOnlyTheRestartedProcesssMemory() throws Exception {
        super.shouldThrowPeerRestartedOnceThenReadOnlyTheRestartedProcesssMemory();
    }
}
