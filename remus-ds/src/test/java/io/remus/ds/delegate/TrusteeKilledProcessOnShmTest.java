package io.remus.ds.delegate;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@link TrusteeKilledProcessOnVerbsTest}'s processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build.
 * The killed process's memory stays (its files outlive it): requests written to the dead trustee's slots
 * land there and are never served.
 */
class TrusteeKilledProcessOnShmTest extends TrusteeKilledProcessOnVerbsTest {
    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Test
    @Override
    void shouldKeepTheLiveTrusteesServingAndFailCallsToTheDeadOneTypedWhenAProcessIsKilledMidCall(@TempDir Path dir)
            throws InterruptedException, IOException {
        super.shouldKeepTheLiveTrusteesServingAndFailCallsToTheDeadOneTypedWhenAProcessIsKilledMidCall(dir);
    }
}
