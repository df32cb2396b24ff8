package io.remus.tools.cli;

import picocli.CommandLine.Option;

/**
 * {@code --segment-mib}, a picocli mixin shared by {@code bench object} and {@code bench ds}: each node's memory;
 * each command checks it against what its runs need.
 */
public final class SegmentMibOption {
    @Option(names = "--segment-mib", paramLabel = "MIB", defaultValue = "64", description = "Memory per node in MiB (default ${DEFAULT-VALUE}).")
    long segmentMib;
}
