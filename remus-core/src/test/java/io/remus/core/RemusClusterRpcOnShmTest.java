package io.remus.core;

import io.remus.core.shm.ShmFabric;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.nio.file.Path;

/**
 * {@link RemusClusterRpcTest} on the shared-memory fabric: each join opens its own {@link ShmFabric} on one fresh
 * directory, as the processes of one host do.
 */
class RemusClusterRpcOnShmTest extends RemusClusterRpcTest {
    private Path dir;

    @BeforeEach
    void openDirectory() {
        dir = Fabrics.freshShmDirectory();
    }

    @AfterEach
    void removeDirectory() {
        ShmFabric.removeFiles(dir);
    }

    @Override
    RemusCluster.Builder builder(int nodeId) {
        return RemusCluster.builder().sharedMemory(dir);
    }
}
