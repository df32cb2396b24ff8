package io.remus.ds.replicate;

import io.remus.core.fabric.Fabric;
import io.remus.core.shm.ShmFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Test;

import java.util.function.Function;

/**
 * {@link ReplicatedLogOnVerbsTest} on this host's shared-memory fabric ({@link ShmFabric}), every node in this
 * process, with its assertions: real threads and no RDMA device, so it runs in every build.
 */
class ReplicatedLogOnShmTest extends ReplicatedLogOnVerbsTest {
    @Override
    Function<SimOptions, Fabric> fabric() {
        return options -> ShmFabric.open(Fabrics.freshShmDirectory());
    }

    @Test
    @Override
    void shouldApplyTheSameSequenceOnEveryMemberWhenAppendsWrapTheLog() throws InterruptedException {
        super.shouldApplyTheSameSequenceOnEveryMemberWhenAppendsWrapTheLog();
    }

    @Test
    @Override
    void shouldFenceTheLeaderWhenItsFollowersSwitchTheirGrantAway() throws InterruptedException {
        super.shouldFenceTheLeaderWhenItsFollowersSwitchTheirGrantAway();
    }
}
