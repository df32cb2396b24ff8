package io.remus.core.testing;

import io.remus.core.fabric.Fabric;
import io.remus.core.shm.ShmFabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.verbs.VerbsFabric;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The parameter sources of the fabric-parameterized tests: each entry makes a fresh fabric from
 * simulator options (a real fabric ignores the options it cannot honour). {@link #all()} is the
 * simulator; {@link #verbs()} the verbs fabric on the device named by {@code REMUS_TEST_DEVICE},
 * which the {@code device}-tagged subclasses ({@code ...OnVerbsTest}) run the same tests with.
 */
public final class Fabrics {
    /** The directories {@link #shm()} made, removed when the JVM exits. */
    private static final List<Path> SHM_DIRS = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> SHM_DIRS.forEach(ShmFabric::removeFiles)));
    }

    private Fabrics() {
    }

    /**
     * @return the shared-memory fabric, every node in this process, each fabric in a fresh directory
     *         ({@link #freshShmDirectory()}); the simulator's options do not apply to it
     */
    public static Stream<Named<Function<SimOptions, Fabric>>> shm() {
        return Stream.of(Named.of("shm", options -> ShmFabric.open(freshShmDirectory())));
    }

    /**
     * @return a new empty directory under {@code /dev/shm} (else the temporary directory), removed with
     *         its shared-memory files when this JVM exits
     */
    public static Path freshShmDirectory() {
        Path shm = Path.of("/dev/shm");
        try {
            Path dir = Files.isDirectory(shm) && Files.isWritable(shm)
                    ? Files.createTempDirectory(shm, "remus-test-") : Files.createTempDirectory("remus-test-");
            SHM_DIRS.add(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the fabrics under test */
    public static Stream<Named<Function<SimOptions, Fabric>>> all() {
        return Stream.of(Named.of("sim", SimFabric::new));
    }

    /**
     * @param seed picks the boundary's place among the first few KiB of the heap
     * @return the simulator with its segments across a 4 GiB boundary at {@link Straddles#offset}{@code (seed, 3)}
     *         ({@link io.remus.core.sim.SimOptions#straddleOffset()}), for histories on one cluster of 3 nodes: a
     *         pointer READ torn between blocks on either side points outside every segment
     */
    public static Named<Function<SimOptions, Fabric>> straddled(long seed) {
        return Named.of("sim, segments across 4 GiB", options -> new SimFabric(Straddles.across(options, seed, 3)));
    }

    /**
     * @return the verbs fabric on {@code REMUS_TEST_DEVICE}; making it skips the test (with the
     * reason) where no device is configured
     */
    public static Stream<Named<Function<SimOptions, Fabric>>> verbs() {
        return Stream.of(Named.of("verbs", options -> VerbsFabric.open(DeviceTests.deviceName())));
    }
}
