package io.remus.core.verbs;

import io.remus.core.BadArgumentException;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeAddress;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * How a {@link VerbsFabric} reaches its device and its peer processes.
 *
 * @param device             the RDMA device, e.g. {@code rxe0} or {@code mlx5_0}
 * @param port               the device port, from 1
 * @param bootstrapAddresses by node id, where each node's process answers connection requests (for
 *                           {@link BootstrapKind#RDMA_CM} an IPv4 address of the RDMA device);
 *                           empty when every node lives in this process
 * @param connectTimeout     how long to keep trying to reach a peer process (it may still be starting)
 * @param bootstrap          how processes connect: rdma_cm (the default) or the TCP fallback
 */
public record VerbsFabricOptions(String device, int port, List<InetSocketAddress> bootstrapAddresses,
                                 Duration connectTimeout, BootstrapKind bootstrap) {
    /** Validates the options. */
    public VerbsFabricOptions {
        if (device == null || device.isBlank()) {
            throw new BadArgumentException("an RDMA device name is needed");
        }
        if (port < 1 || port > 255) {
            throw new BadArgumentException("device port must be 1..255, got " + port);
        }
        bootstrapAddresses = List.copyOf(bootstrapAddresses);
        if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new BadArgumentException("connect timeout must be positive");
        }
        if (bootstrap == null) {
            throw new BadArgumentException("a bootstrap kind is needed");
        }
    }

    /**
     * @param device the RDMA device
     * @return every node in this process, port 1, a 30 s connect timeout
     */
    public static VerbsFabricOptions singleProcess(String device) {
        return new VerbsFabricOptions(device, 1, List.of(), Duration.ofSeconds(30), BootstrapKind.RDMA_CM);
    }

    /**
     * @param device             the RDMA device
     * @param bootstrapAddresses each node's address, by node id
     * @param connectTimeout     how long to keep trying to reach a peer
     * @return options for one process of a multi-process cluster, bootstrapping over rdma_cm
     */
    public static VerbsFabricOptions cluster(String device, List<InetSocketAddress> bootstrapAddresses, Duration connectTimeout) {
        return new VerbsFabricOptions(device, 1, bootstrapAddresses, connectTimeout, BootstrapKind.RDMA_CM);
    }

    /**
     * @param device         the RDMA device
     * @param config         the cluster configuration: its node list gives every node's address
     *                       ({@link ClusterConfig#nodeAddresses()})
     * @param connectTimeout how long to keep trying to reach a peer
     * @return options for the process of {@code config.nodeId()}, bootstrapping over rdma_cm
     */
    public static VerbsFabricOptions cluster(String device, ClusterConfig config, Duration connectTimeout) {
        List<InetSocketAddress> addresses = config.nodeAddresses().stream()
                .map((NodeAddress a) -> new InetSocketAddress(a.host(), a.port())).toList();
        return cluster(device, addresses, connectTimeout);
    }

    /** @param kind how processes connect @return these options with that bootstrap */
    public VerbsFabricOptions withBootstrap(BootstrapKind kind) {
        return new VerbsFabricOptions(device, port, bootstrapAddresses, connectTimeout, kind);
    }

    /** @param nodeId a node @return whether the node has a bootstrap address (a multi-process node) */
    boolean hasAddress(int nodeId) {
        return nodeId >= 0 && nodeId < bootstrapAddresses.size();
    }
}
