/**
 * A plain Java entry point for lock benchmarks (the {@code remus bench lock} command wraps it):
 * throughput and a latency histogram of lock/unlock pairs over a lock table on any fabric.
 */
package io.remus.alock.bench;
