package io.remus.alock.cluster;

import io.remus.core.config.ClusterConfig;
import io.remus.core.testing.ProcessFabric;

import java.time.Duration;

/**
 * A child JVM of {@link MultiProcessLockTest}: plays node {@code nodeId} of {@code size} processes
 * on one device (each listening on the device's IPv4 address at {@code basePort + i}) and prints
 * its {@link LockNodeReport} lines. Arguments: {@code fabric nodeId size basePort sliceMillis}, the
 * fabric a device name or {@code shm:DIR} ({@link ProcessFabric}).
 */
public final class LockNodeMain {
    private LockNodeMain() {
    }

    /** @param args fabric ({@link ProcessFabric#parse}), node id, size, base port, slice per lock kind in milliseconds */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Duration slice = Duration.ofMillis(Long.parseLong(args[4]));
        Duration connect = Duration.ofSeconds(90);
        ClusterConfig config = LockNodeScenario.config(nodeId, fabric.hosts(size), basePort);
        for (LockNodeReport r : LockNodeScenario.run(fabric, config, connect, slice)) {
            System.out.println(r.line());
        }
        System.out.flush();
        System.exit(0);
    }
}
