package io.remus.core.verbs;

import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;

import java.time.Duration;
import java.util.Collections;
import java.util.Locale;

/**
 * A child JVM of {@link MultiProcessTest}: plays node {@code nodeId} of {@code size} processes on
 * one device, each listening on the device's IPv4 address at {@code basePort + i}; prints the
 * scenario's result. Arguments: {@code scenario(counts|kill) fabric nodeId size basePort ops bootstrap(rdma_cm|tcp)},
 * the fabric a device name or {@code shm:DIR} ({@link ProcessFabric}; the bootstrap is the verbs fabric's).
 */
public final class MultiNodeMain {
    private MultiNodeMain() {
    }

    /** @param args scenario, fabric ({@link ProcessFabric#parse}), node id, size, base port, operation count, bootstrap kind */
    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        ProcessFabric fabric = ProcessFabric.parse(args[1]);
        int nodeId = Integer.parseInt(args[2]);
        int size = Integer.parseInt(args[3]);
        int basePort = Integer.parseInt(args[4]);
        int ops = Integer.parseInt(args[5]);
        BootstrapKind kind = BootstrapKind.valueOf(args[6].toUpperCase(Locale.ROOT));
        Duration connect = Duration.ofSeconds(90);
        String host = kind == BootstrapKind.TCP || fabric.isShm() ? "127.0.0.1" : fabric.host();
        ClusterConfig config = ClusterProcess.config(nodeId, Collections.nCopies(size, host), basePort);
        RemusCluster.Builder join = fabric.builder(config, connect,
                fabric.isShm() ? null : MultiNodeScenario.options(fabric.device(), config, connect, kind));
        String result = scenario.equals("kill")
                ? MultiNodeScenario.runUntilPeerDies(join, config, ops, connect)
                : MultiNodeScenario.run(join, config, ops, connect);
        System.out.println("RESULT " + result);
        System.out.flush();
        System.exit(result.startsWith("NO ERROR") ? 3 : 0);
    }
}
