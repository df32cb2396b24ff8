package io.remus.tools.cli;

import picocli.CommandLine.Mixin;

/**
 * The device and chart flags of the one-node probes, {@code experiment loopback} and {@code experiment numa},
 * a picocli mixin: {@code -d} (null: the first device) and {@code --plot}.
 */
public final class ProbeOptions {
    @Mixin
    DeviceOption device;

    @Mixin
    SharedOptions.PlotOption plot;
}
