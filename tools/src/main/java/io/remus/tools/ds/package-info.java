/**
 * {@code remus bench ds}: runs bench-engines' set and map benchmark ({@code io.remus.bench.structure}) with
 * HdrHistogram latency per operation type, and writes its table, its JSON and Remus' {@code metrics.txt}.
 */
package io.remus.tools.ds;
