package io.remus.core.verbs;

import io.remus.core.BadArgumentException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * How a {@link VerbsFabric} reaches its device and its peer processes.
 *
 * @param device             the RDMA device, e.g. {@code rxe0} or {@code mlx5_0}
 * @param port               the device port, from 1
 * @param bootstrapAddresses by node id, the TCP address where each node's process answers
 *                           bootstrap requests; empty when every node lives in this process
 * @param connectTimeout     how long to keep trying to reach a peer process (it may still be starting)
 */
public record VerbsFabricOptions(String device, int port, List<InetSocketAddress> bootstrapAddresses,
                                 Duration connectTimeout) {
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
    }

    /**
     * @param device the RDMA device
     * @return every node in this process, port 1, a 30 s connect timeout
     */
    public static VerbsFabricOptions singleProcess(String device) {
        return new VerbsFabricOptions(device, 1, List.of(), Duration.ofSeconds(30));
    }

    /**
     * @param device             the RDMA device
     * @param bootstrapAddresses each node's bootstrap address, by node id
     * @param connectTimeout     how long to keep trying to reach a peer
     * @return options for one process of a multi-process cluster
     */
    public static VerbsFabricOptions cluster(String device, List<InetSocketAddress> bootstrapAddresses, Duration connectTimeout) {
        return new VerbsFabricOptions(device, 1, bootstrapAddresses, connectTimeout);
    }

    /** @param nodeId a node @return whether the node has a bootstrap address (a multi-process node) */
    boolean hasAddress(int nodeId) {
        return nodeId >= 0 && nodeId < bootstrapAddresses.size();
    }
}
