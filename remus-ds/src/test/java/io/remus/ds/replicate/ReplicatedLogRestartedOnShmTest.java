package io.remus.ds.replicate;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@link ReplicatedLogRestartedOnVerbsTest}'s processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build. A killed
 * process's memory stays (its files outlive it) until its node opens again, so the leader's WRITEs to the killed
 * member still land until its second life opens its node; the first WRITE after that finds the node restarted and
 * detaches it. The killed leader's heartbeat READs still succeed, so the survivors suspect it by count, once its
 * heartbeat has stood still for {@value #SUSPECT_AFTER} READs (about 4 s at one READ per 2 ms poll).
 */
class ReplicatedLogRestartedOnShmTest extends ReplicatedLogRestartedOnVerbsTest {
    /** Heartbeat READs in a row without change before an agent suspects a member, on this host. */
    private static final int SUSPECT_AFTER = 2000;

    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Override
    int suspectAfter() {
        return SUSPECT_AFTER;
    }

    @Test
    @Override
    void shouldRejoinARestartedMemberWithNewMemoryAndLoseNoCommittedEntryWhenTheLeaderIsKilledAfter(@TempDir Path dir)
            throws InterruptedException, IOException {
        super.shouldRejoinARestartedMemberWithNewMemoryAndLoseNoCommittedEntryWhenTheLeaderIsKilledAfter(dir);
    }
}
