package io.remus.tools.cli;

import io.remus.core.shm.ShmFabric;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@link MemcachedProcessesOnVerbsTest}'s three {@code remus serve memcached} processes on this host's
 * shared-memory fabric ({@link ShmFabric}), with its assertions: no RDMA device, so it runs in every build.
 */
class MemcachedProcessesOnShmTest extends MemcachedProcessesOnVerbsTest {
    @Override
    List<String> fabricArgs(Path dir) throws IOException {
        return shmArgs(dir);
    }

    /** @return the shm fabric's arguments, its files in a fresh directory whose path is recorded in {@code dir} */
    static List<String> shmArgs(Path dir) throws IOException {
        Path devShm = Path.of("/dev/shm");
        Path shm = Files.isDirectory(devShm) && Files.isWritable(devShm)
                ? Files.createTempDirectory(devShm, "remus-memcached-") : Files.createDirectories(dir.resolve("shm"));
        Files.writeString(dir.resolve("shm-dir"), shm.toString());
        return List.of("--fabric", "shm", "--shm.dir=" + shm);
    }

    @Override
    Duration startBound() {
        return Duration.ofSeconds(60);
    }

    @Override
    void cleanUp(Path dir) throws IOException {
        removeShm(dir);
    }

    /** Removes the shm fabric's files that {@link #shmArgs} placed. */
    static void removeShm(Path dir) throws IOException {
        Path recorded = dir.resolve("shm-dir");
        if (Files.exists(recorded)) {
            Path shm = Path.of(Files.readString(recorded));
            ShmFabric.removeFiles(shm);
            Files.deleteIfExists(shm);
        }
    }

    @Test
    @Override
    void shouldServeOneStoreThroughEveryProcesssPortAndStopOnSigterm() throws Exception {
        super.shouldServeOneStoreThroughEveryProcesssPortAndStopOnSigterm();
    }
}
