package io.remus.ds.index;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@link IndexRestartedOnVerbsTest}'s processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build. A killed
 * process's memory stays (its files outlive it) until its node opens again, so the leader's WRITEs to the killed
 * follower land until its second life opens its node, and the survivors suspect the killed leader only by count,
 * once its heartbeat has stood still for {@value #SUSPECT_AFTER} READs (about 8 s at one READ per 2 ms poll); a
 * client's call in flight at the dead leader is never answered, so it moves on after {@link #ATTEMPT}, longer than
 * any answer of a live leader on this host.
 */
class IndexRestartedOnShmTest extends IndexRestartedOnVerbsTest {
    /** Heartbeat READs in a row without change before an agent suspects a member, on this host. */
    private static final int SUSPECT_AFTER = 4000;
    /** A client's attempt timeout on this host. */
    private static final Duration ATTEMPT = Duration.ofSeconds(8);

    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Override
    int suspectAfter() {
        return SUSPECT_AFTER;
    }

    @Override
    Duration attempt() {
        return ATTEMPT;
    }

    @Test
    @Override
    void shouldRejoinARestartedServerProcessAndFailOverWithItWhenTheLeaderIsKilled(@TempDir Path dir)
            throws InterruptedException, IOException {
        super.shouldRejoinARestartedServerProcessAndFailOverWithItWhenTheLeaderIsKilled(dir);
    }
}
