package io.remus.core.sim;

/**
 * How a run on the {@link VirtualTimeScheduler} went.
 *
 * @param seed     the seed it ran with
 * @param endNanos the virtual time at which its last thread ended
 * @param switches how many times the scheduler handed the processor from one thread to another
 * @param threads  how many scheduled threads it ran, the main one included
 */
public record VirtualTimeRun(long seed, long endNanos, long switches, int threads) {
}
