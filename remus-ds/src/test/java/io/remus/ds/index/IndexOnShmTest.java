package io.remus.ds.index;

import io.remus.core.fabric.Fabric;
import io.remus.core.shm.ShmFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Test;

import java.util.function.Function;

/**
 * {@link IndexOnVerbsTest} on this host's shared-memory fabric ({@link ShmFabric}), every node in this process,
 * with its assertions: real threads and no RDMA device, so it runs in every build.
 */
class IndexOnShmTest extends IndexOnVerbsTest {
    @Override
    Function<SimOptions, Fabric> fabric() {
        return options -> ShmFabric.open(Fabrics.freshShmDirectory());
    }

    @Test
    @Override
    void shouldPutGetAndDeleteAcrossTwoShardsAsTheModelSays() throws InterruptedException {
        super.shouldPutGetAndDeleteAcrossTwoShardsAsTheModelSays();
    }

    @Test
    @Override
    void shouldBeLinearizablePerKeyWithTwoConcurrentClientsOnSharedKeys() throws InterruptedException {
        super.shouldBeLinearizablePerKeyWithTwoConcurrentClientsOnSharedKeys();
    }

    @Test
    @Override
    void shouldApplyAResentRequestOnce() throws InterruptedException {
        super.shouldApplyAResentRequestOnce();
    }
}
