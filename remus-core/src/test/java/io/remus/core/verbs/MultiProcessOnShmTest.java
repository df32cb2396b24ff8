package io.remus.core.verbs;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;

/**
 * {@link MultiProcessTest}'s three processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build.
 * The cases that test the verbs fabric's bootstrap or a dead peer's unreachable memory are not run here.
 */
class MultiProcessOnShmTest extends MultiProcessTest {
    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Test
    @Override
    void shouldCountExactlyWhenThreeProcessesShareCounters() throws InterruptedException {
        super.shouldCountExactlyWhenThreeProcessesShareCounters();
    }

    @Override
    void shouldCountExactlyOverTcpFallbackWhileSilentPeersHoldEveryBootstrapPort() {
        // The TCP bootstrap is the verbs fabric's: shared-memory nodes meet in their directory.
    }

    @Override
    void shouldGiveSurvivorsTypedErrorsWhenPeerProcessDiesMidRun() {
        // A dead process's memory stays reachable on shared memory (ShmDeadProcessTest), so no operation fails.
    }
}
