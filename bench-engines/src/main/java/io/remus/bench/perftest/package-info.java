/**
 * The perftest-style benchmark engine that {@code remus bench} runs: read, write, send and atomic
 * latency ({@link io.remus.bench.perftest.BenchRunner#latency()}) and bandwidth
 * ({@link io.remus.bench.perftest.BenchRunner#bandwidth()}) over a
 * {@link io.remus.bench.perftest.BenchTransport}, with a warm-up that waits for the JIT compiler
 * to go quiet ({@link io.remus.bench.perftest.JitQuiet}). Transports: the simulator
 * ({@code io.remus.bench.perftest.sim}) and verbs ({@code io.remus.bench.perftest.verbs}).
 */
package io.remus.bench.perftest;
