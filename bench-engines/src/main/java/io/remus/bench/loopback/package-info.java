/**
 * The loopback experiment that {@code remus experiment loopback} runs: the same 8-byte READ, WRITE
 * and compare-and-swap as a CPU access, through node 0's loopback QP, and to another node
 * ({@link io.remus.bench.loopback.LoopbackExperiment}), with HdrHistogram latency per row.
 */
package io.remus.bench.loopback;
