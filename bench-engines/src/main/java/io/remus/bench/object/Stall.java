package io.remus.bench.object;

import io.remus.core.time.ThreadTime;

import java.util.function.LongSupplier;

/**
 * The stalled worker's stop: armed by the worker when its stall is due, taken by it at the next
 * {@link #parkIfArmed()} (inside an operation, through {@link StallingObject}, or between two), where it
 * waits for the stall's length or until {@link #release()}, and records how long it stood still and how many
 * operations the others completed meanwhile. Used by its worker only, besides {@link #release()}; the
 * fields are read after the worker's thread is joined. Its clock and wait are {@link ThreadTime}'s: under the
 * simulator's virtual-time scheduler the stop lasts virtual time, while the other workers run.
 */
final class Stall {
    private volatile boolean released;
    private volatile Thread parked;
    private final LongSupplier others;
    private volatile boolean armed;
    private long length;
    private long nanos;
    private long othersDuring;

    /** @param others the other workers' completed operations so far */
    Stall(LongSupplier others) {
        this.others = others;
    }

    /** @param length how long the stop lasts, in nanoseconds, from when it is taken */
    void arm(long length) {
        this.length = length;
        armed = true;
    }

    /** Stops here, once, when armed. */
    void parkIfArmed() {
        if (!armed) {
            return;
        }
        armed = false;
        long begin = ThreadTime.nanoTime();
        long before = others.getAsLong();
        parked = Thread.currentThread();
        for (long left = length; !released && left > 0; left = begin + length - ThreadTime.nanoTime()) {
            ThreadTime.parkNanos(this, left);
        }
        parked = null;
        othersDuring = others.getAsLong() - before;
        nanos = ThreadTime.nanoTime() - begin;
    }

    /** Ends the stop now (the run is over), or makes a later one end at once. */
    void release() {
        released = true;
        ThreadTime.unpark(parked);
    }

    /** {@return how long the worker stood still, 0 when it never did} */
    long nanos() {
        return nanos;
    }

    /** {@return the other workers' operations meanwhile} */
    long othersDuring() {
        return othersDuring;
    }
}
