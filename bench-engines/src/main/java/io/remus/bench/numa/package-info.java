/**
 * The NUMA experiment that {@code remus experiment numa} runs: memory bound to each NUMA node with
 * {@code mbind(2)}, the measuring thread pinned to each node, a dependent pointer chase, a sequential
 * read and, on a fabric, RDMA READs of the bound memory per placement
 * ({@link io.remus.bench.numa.NumaExperiment}); the node list comes from sysfs
 * ({@link io.remus.bench.numa.NumaTopology}).
 */
package io.remus.bench.numa;
