package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import picocli.CommandLine.Option;

/**
 * {@code -d}/{@code --ib-dev}, a picocli mixin shared by {@code remus devices} and the commands that run on
 * {@code --fabric verbs}: the RDMA device, or null for the first one libibverbs lists (every device). Given
 * with the simulator it is refused by {@link FabricChoice#choose} (or by {@code experiment sharing} and {@code experiment kv}).
 */
public final class DeviceOption {
    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEVICE", description = "RDMA device for --fabric verbs, e.g. mlx5_0 (default: the first one libibverbs lists; remus devices: show only this one).")
    String device;
}
