package io.remus.tools.cli;

import io.remus.core.shm.ShmFabric;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@link MemcachedReplicatedProcessesOnVerbsTest}'s three {@code remus serve memcached} processes with the
 * replicated engine on this host's shared-memory fabric ({@link ShmFabric}), with its assertions: no RDMA device,
 * so it runs in every build.
 */
class MemcachedReplicatedProcessesOnShmTest extends MemcachedReplicatedProcessesOnVerbsTest {
    @Override
    List<String> fabricArgs(Path dir) throws IOException {
        return MemcachedProcessesOnShmTest.shmArgs(dir);
    }

    @Override
    Duration startBound() {
        return Duration.ofSeconds(90);
    }

    @Override
    void cleanUp(Path dir) throws IOException {
        MemcachedProcessesOnShmTest.removeShm(dir);
    }

    @Test
    @Override
    void shouldServeOneStoreThroughEveryProcesssPortAndStopOnSigterm() throws Exception {
        super.shouldServeOneStoreThroughEveryProcesssPortAndStopOnSigterm();
    }
}
