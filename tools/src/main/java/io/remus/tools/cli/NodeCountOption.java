package io.remus.tools.cli;

import picocli.CommandLine.Option;

/**
 * {@code --nodes}, a picocli mixin shared by the benchmarks and experiments that run several nodes: the node count with every
 * node in this JVM, or, with one process per node, the cluster's size when given ({@code ClusterOptions.prepare}).
 */
public final class NodeCountOption {
    @Option(names = "--nodes", paramLabel = "N", defaultValue = "2", description = "Nodes, each a memory and compute node (default ${DEFAULT-VALUE}).")
    int nodes;
}
