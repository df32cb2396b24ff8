package io.remus.tools.cli;

import picocli.CommandLine.Option;

/**
 * {@code --segment-mib}, a picocli mixin shared by the commands that give each node memory: each node's memory
 * in MiB, 64 unless the command passes its own default to the constructor; each command checks it against what
 * its runs need.
 */
public final class SegmentMibOption {
    @Option(names = "--segment-mib", paramLabel = "MIB", description = "Memory per node in MiB (default ${DEFAULT-VALUE}).")
    long segmentMib;

    SegmentMibOption() {
        this(64);
    }

    SegmentMibOption(long segmentMib) {
        this.segmentMib = segmentMib;
    }
}
