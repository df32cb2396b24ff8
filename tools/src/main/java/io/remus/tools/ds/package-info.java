/**
 * {@code remus bench ds}: runs remus-ds's set and map benchmark ({@code io.remus.ds.bench.structure}) with
 * HdrHistogram latency per operation type, and writes its table, its JSON and Remus' {@code metrics.txt}.
 */
package io.remus.tools.ds;
