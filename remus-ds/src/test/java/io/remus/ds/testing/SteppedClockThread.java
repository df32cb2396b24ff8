package io.remus.ds.testing;

import io.remus.core.time.ScheduledThread;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ScheduledThread} alone on a clock of its own: the clock starts at 0 and moves only when the
 * thread waits through {@link io.remus.core.time.ThreadTime} (one step per spin or yield, the asked
 * time per park) or is charged. It counts every wait by what it awaited, so a test sees which waits of
 * the library went through {@code ThreadTime} and that a deadline was measured on the thread's clock.
 * It runs no other thread: {@link io.remus.core.time.ThreadTime#newThread} and
 * {@link io.remus.core.time.ThreadTime#join} are refused.
 */
public final class SteppedClockThread extends ScheduledThread {
    private final long stepNanos;
    private final Callable<?> body;
    private final Map<String, Long> waits = new LinkedHashMap<>();
    private long clock;
    private Object result;
    private Throwable failure;

    private SteppedClockThread(long stepNanos, Callable<?> body) {
        super(null, "stepped-clock");
        this.stepNanos = stepNanos;
        this.body = body;
    }

    /**
     * Runs {@code body} on a new stepped-clock thread and waits for it (at most 10 s of host time).
     *
     * @param stepNanos how far the clock moves per spin or yield
     * @param body      what the thread runs
     * @return the thread, ended, for its clock and counts
     * @throws Exception what {@code body} threw, or an {@link AssertionError} when it did not end in time
     */
    public static SteppedClockThread run(long stepNanos, Callable<?> body) throws Exception {
        SteppedClockThread t = new SteppedClockThread(stepNanos, body);
        t.setDaemon(true);
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(10));
        if (t.isAlive()) {
            throw new AssertionError("the stepped-clock thread did not end within 10 s of host time; its waits: " + t.waits);
        }
        if (t.failure instanceof Exception e) {
            throw e;
        }
        if (t.failure instanceof Error e) {
            throw e;
        }
        return t;
    }

    @Override
    public void run() {
        try {
            result = body.call();
        } catch (Throwable e) {
            failure = e;
        }
    }

    /** {@return what the body returned} */
    public Object result() {
        return result;
    }

    /** {@return the clock, in nanoseconds since the thread started} */
    public long clock() {
        return clock;
    }

    /** {@return how many waits named {@code awaited} (a spin's label, or a park's blocker as text) */
    public long waits(String awaited) {
        return waits.getOrDefault(awaited, 0L);
    }

    /** {@return every wait by what it awaited ("null" for unnamed ones)} */
    public Map<String, Long> waits() {
        return Map.copyOf(waits);
    }

    @Override
    protected long clockNanos() {
        return clock;
    }

    @Override
    protected void spin(String awaited) {
        waits.merge(String.valueOf(awaited), 1L, Long::sum);
        clock += stepNanos;
        Thread.onSpinWait();
    }

    @Override
    protected void park(Object blocker, long nanos) {
        waits.merge(String.valueOf(blocker), 1L, Long::sum);
        clock += nanos;
    }

    @Override
    protected void wake() {
    }

    @Override
    protected void charge(long nanos) {
        clock += nanos;
    }

    @Override
    protected Thread newSibling(String name, Runnable task) {
        throw new UnsupportedOperationException("a stepped-clock thread runs alone");
    }

    @Override
    protected boolean awaitEnd(Thread other, long nanos) {
        throw new UnsupportedOperationException("a stepped-clock thread runs alone");
    }
}
