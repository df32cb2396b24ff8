package io.remus.ds.cluster;

import io.remus.core.testing.ProcessFabric;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child JVM of {@link DataStructuresProcessesOnVerbsTest}: node {@code nodeId} of {@code size}
 * processes on one device, playing {@link DataStructuresClusterTest}'s node (the sets, the map, the MPMC
 * queue and the SPSC ring buffer). Prints {@code OK} and what
 * the node reports, or the failure, and exits 0 or 1. Arguments: {@code fabric nodeId size basePort}, the fabric a device name or
 * {@code shm:DIR} ({@link ProcessFabric}).
 */
public final class DataStructuresProcessMain {
    private DataStructuresProcessMain() {
    }

    /** @param args fabric ({@link ProcessFabric#parse}), node id, size, base port */
    public static void main(String[] args) {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        int status = 0;
        try {
            Path dir = Files.createTempDirectory("ds-processes-" + nodeId);
            String report = DataStructuresClusterTest.play(fabric, nodeId, fabric.hosts(size),
                    basePort, dir);
            System.out.println("OK " + report);
        } catch (Throwable e) {
            e.printStackTrace(System.out);
            System.out.println("FAILED " + e);
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }
}
