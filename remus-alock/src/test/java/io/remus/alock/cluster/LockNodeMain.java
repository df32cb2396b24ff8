package io.remus.alock.cluster;

import io.remus.core.config.ClusterConfig;
import io.remus.verbs.testing.DeviceAddress;
import io.remus.core.verbs.VerbsFabricOptions;

import java.time.Duration;
import java.util.Collections;

/**
 * A child JVM of {@link MultiProcessLockTest}: plays node {@code nodeId} of {@code size} processes
 * on one device (each listening on the device's IPv4 address at {@code basePort + i}) and prints
 * its {@link LockNodeReport} lines. Arguments: {@code device nodeId size basePort sliceMillis}.
 */
public final class LockNodeMain {
    private LockNodeMain() {
    }

    /** @param args device, node id, size, base port, slice per lock kind in milliseconds */
    public static void main(String[] args) throws Exception {
        String device = args[0];
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Duration slice = Duration.ofMillis(Long.parseLong(args[4]));
        Duration connect = Duration.ofSeconds(90);
        ClusterConfig config = LockNodeScenario.config(nodeId,
                Collections.nCopies(size, DeviceAddress.ipv4(device)), basePort);
        VerbsFabricOptions options = VerbsFabricOptions.cluster(device, config, connect);
        for (LockNodeReport r : LockNodeScenario.run(options, config, connect, slice)) {
            System.out.println(r.line());
        }
        System.out.flush();
        System.exit(0);
    }
}
