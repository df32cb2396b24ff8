package io.remus.core.verbs;

import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeAddress;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link VerbsFabric} reaches its device and its peer processes.
 *
 * @param device             the RDMA device, e.g. {@code rxe0} or {@code mlx5_0}
 * @param port               the device port, from 1
 * @param bootstrapAddresses by node id, where each node's process answers connection requests (for
 *                           {@link BootstrapKind#RDMA_CM} an IPv4 address of the RDMA device);
 *                           empty when every node lives in this process
 * @param connectTimeout     how long to keep trying to reach a peer process (it may still be starting):
 *                           at most {@link Timeouts#MAX_FINITE}, or {@link Timeouts#FOREVER}
 * @param bootstrap          how processes connect: rdma_cm (the default) or the TCP fallback
 */
public record VerbsFabricOptions(String device, int port, List<InetSocketAddress> bootstrapAddresses,
                                 Duration connectTimeout, BootstrapKind bootstrap) {
    /**
     * Validates the options: nulls are {@link NullPointerException}s naming the parameter, bad
     * values {@link BadArgumentException}s naming it and the value.
     */
    public VerbsFabricOptions {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(bootstrapAddresses, "bootstrapAddresses");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(bootstrap, "bootstrap");
        if (device.isBlank()) {
            throw new BadArgumentException("device: an RDMA device name is needed, got '" + device + "'");
        }
        if (port < 1 || port > 255) {
            throw new BadArgumentException("port: the device port must be 1..255, got " + port);
        }
        for (int i = 0; i < bootstrapAddresses.size(); i++) {
            Objects.requireNonNull(bootstrapAddresses.get(i), "bootstrapAddresses[" + i + "]");
        }
        bootstrapAddresses = List.copyOf(bootstrapAddresses);
        Timeouts.require(connectTimeout, "connectTimeout");
    }

    /**
     * Options for a cluster whose nodes all run in this process.
     *
     * @param device the RDMA device
     * @return every node in this process, port 1, a 30 s connect timeout
     */
    public static VerbsFabricOptions singleProcess(String device) {
        return new VerbsFabricOptions(device, 1, List.of(), Duration.ofSeconds(30), BootstrapKind.RDMA_CM);
    }

    /**
     * Options for one process of a multi-process cluster, from the nodes' addresses.
     *
     * @param device             the RDMA device
     * @param bootstrapAddresses each node's address, by node id
     * @param connectTimeout     how long to keep trying to reach a peer
     * @return options for one process of a multi-process cluster, bootstrapping over rdma_cm
     */
    public static VerbsFabricOptions cluster(String device, List<InetSocketAddress> bootstrapAddresses, Duration connectTimeout) {
        return new VerbsFabricOptions(device, 1, bootstrapAddresses, connectTimeout, BootstrapKind.RDMA_CM);
    }

    /**
     * Options for one process of a multi-process cluster, from the cluster configuration.
     *
     * @param device         the RDMA device
     * @param config         the cluster configuration: its node list gives every node's address
     *                       ({@link ClusterConfig#nodeAddresses()})
     * @param connectTimeout how long to keep trying to reach a peer
     * @return options for the process of {@code config.nodeId()}, bootstrapping over rdma_cm
     */
    public static VerbsFabricOptions cluster(String device, ClusterConfig config, Duration connectTimeout) {
        Objects.requireNonNull(config, "config");
        List<InetSocketAddress> addresses = config.nodeAddresses().stream()
                .map((NodeAddress a) -> new InetSocketAddress(a.host(), a.port())).toList();
        return cluster(device, addresses, connectTimeout);
    }

    /**
     * Chooses how processes connect.
     *
     * @param kind how processes connect
     * @return these options with that bootstrap
     */
    public VerbsFabricOptions withBootstrap(BootstrapKind kind) {
        return new VerbsFabricOptions(device, port, bootstrapAddresses, connectTimeout, kind);
    }

    /** @param nodeId a node @return whether the node has a bootstrap address (a multi-process node) */
    boolean hasAddress(int nodeId) {
        return nodeId >= 0 && nodeId < bootstrapAddresses.size();
    }
}
