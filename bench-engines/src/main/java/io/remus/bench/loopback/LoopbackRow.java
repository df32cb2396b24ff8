package io.remus.bench.loopback;

import io.remus.core.fabric.Opcode;
import io.remus.bench.stats.LatencySummary;

/**
 * One line of the loopback experiment.
 *
 * @param operation    READ, WRITE or COMPARE_AND_SWAP, 8 bytes
 * @param path         how the word was reached
 * @param latency      per-operation latency, one at a time, in nanoseconds (a round trip for RDMA paths)
 * @param opsPerSecond operations per second with {@code depth} in flight (one at a time for the CPU)
 */
public record LoopbackRow(Opcode operation, AccessPath path, LatencySummary latency, double opsPerSecond) {
}
