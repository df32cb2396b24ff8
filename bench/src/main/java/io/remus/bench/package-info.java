/**
 * JMH benchmarks of the per-operation software cost, one sub-package per layer measured:
 * {@code pointer} ({@code RemotePtr} arithmetic), {@code fabric} (the fabric SPI on the simulator),
 * {@code core} ({@code ComputeThread} on a simulated cluster) and {@code verbs} (the verbs API on a
 * real device). How to run them and the recorded results: {@code bench/README.md}.
 */
package io.remus.bench;
