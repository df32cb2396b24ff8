package io.remus.tools.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The device and chart flags of the one-node probes, {@code experiment loopback} and {@code experiment numa},
 * a picocli mixin: {@code -d} (null: the first device) and {@code --plot}.
 */
public final class ProbeOptions {
    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEVICE", description = "RDMA device (verbs; default: the first).")
    String device;

    @Option(names = "--plot", paramLabel = "FILE", description = "Also draw the results as a PNG.")
    Path plot;
}
