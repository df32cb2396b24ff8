package io.remus.tools.cli;

import picocli.CommandLine.Option;

/**
 * {@code -d}/{@code --ib-dev}, a picocli mixin shared by the commands that run on {@code --fabric verbs}
 * with every node in this process: the RDMA device, or null for the first one libibverbs lists. Given
 * with the simulator it is refused by {@link FabricChoice#choose} (or by {@code experiment sharing} and {@code experiment kv}).
 */
public final class DeviceOption {
    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEVICE", description = "RDMA device for --fabric verbs (default: the first one libibverbs lists).")
    String device;
}
