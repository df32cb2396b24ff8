package io.remus.ds.index;

import io.remus.core.testing.ProcessFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@link IndexKilledLeaderOnVerbsTest}'s processes on this host's shared-memory fabric
 * ({@link io.remus.core.shm.ShmFabric}), with its assertions: no RDMA device, so it runs in every build. The killed
 * leader's memory stays (its files outlive it), so the survivors' heartbeat READs of it still succeed and they
 * suspect it by count, once its heartbeat has stood still for {@value IndexKilledLeaderMain#SUSPECT_AFTER} READs;
 * a client's call to it lands and is never answered, so the client moves on after its attempt timeout.
 */
class IndexKilledLeaderOnShmTest extends IndexKilledLeaderOnVerbsTest {
    @Override
    ProcessFabric fabric() {
        return ProcessFabric.freshShm();
    }

    @Test
    @Override
    void shouldFailOverAndApplyEachOperationOnceWhenTheLeaderIsKilledMidRequest(@TempDir Path dir)
            throws InterruptedException, IOException {
        super.shouldFailOverAndApplyEachOperationOnceWhenTheLeaderIsKilledMidRequest(dir);
    }
}
