/**
 * The reports of {@code remus bench ds}, whose runs bench-engines' set and map benchmark
 * ({@code io.remus.bench.structure}, {@link io.remus.bench.structure.DsSweep}) measures with
 * HdrHistogram latency per operation type: its table, its JSON and Remus' {@code metrics.txt}.
 */
package io.remus.tools.ds;
