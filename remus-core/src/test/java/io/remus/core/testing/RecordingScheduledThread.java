package io.remus.core.testing;

import io.remus.core.time.ScheduledHandle;
import io.remus.core.time.ScheduledThread;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ScheduledThread} without a scheduler, for tests of what the library asks of one through
 * {@link io.remus.core.time.ThreadTime}: its clock is a counter that only its own waits and charges move (a spin or
 * a yield by a fixed step, a park by its whole length unless a wake came first, a charge by its length), and it
 * records every spin's label, every park and every wake. It runs alone: nothing else moves its clock, and
 * {@link io.remus.core.time.ThreadTime#newThread} and {@link io.remus.core.time.ThreadTime#join} are refused.
 */
public final class RecordingScheduledThread extends ScheduledThread {
    /** How far one spin moves the clock unless the thread is made with another step. */
    public static final long SPIN_NANOS = 100;

    private final Recorder recorder;
    private volatile Object result;

    /**
     * An unstarted thread whose clock starts at {@code startNanos} and moves {@value #SPIN_NANOS} ns per spin.
     *
     * @param task       what it runs
     * @param startNanos its clock at start
     */
    public RecordingScheduledThread(Runnable task, long startNanos) {
        this(task, startNanos, SPIN_NANOS);
    }

    /**
     * An unstarted thread whose clock starts at {@code startNanos} and moves {@code stepNanos} per spin.
     *
     * @param task       what it runs
     * @param startNanos its clock at start
     * @param stepNanos  how far one spin or yield moves the clock
     */
    public RecordingScheduledThread(Runnable task, long startNanos, long stepNanos) {
        this(task, new Recorder(startNanos, stepNanos));
    }

    private RecordingScheduledThread(Runnable task, Recorder recorder) {
        super(task, "recording-scheduled", recorder);
        this.recorder = recorder;
    }

    /**
     * As {@link #run(long, long, Callable)} with a step of {@value #SPIN_NANOS} ns.
     *
     * @param startNanos the clock at start
     * @param body       what it runs
     * @return the thread, ended
     * @throws Exception what {@code body} threw, or an {@link AssertionError} when it did not end in time
     */
    public static RecordingScheduledThread run(long startNanos, Callable<?> body) throws Exception {
        return run(startNanos, SPIN_NANOS, body);
    }

    /**
     * Runs {@code body} on a new recording thread and returns it once the body ended (within 10 s of host time).
     *
     * @param startNanos the clock at start
     * @param stepNanos  how far one spin or yield moves the clock
     * @param body       what it runs
     * @return the thread, ended, for its clock, records and {@link #result()}
     * @throws Exception what {@code body} threw, or an {@link AssertionError} when it did not end in time
     */
    public static RecordingScheduledThread run(long startNanos, long stepNanos, Callable<?> body) throws Exception {
        Throwable[] failure = new Throwable[1];
        RecordingScheduledThread[] self = new RecordingScheduledThread[1];
        RecordingScheduledThread t = new RecordingScheduledThread(() -> {
            try {
                self[0].result = body.call();
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, startNanos, stepNanos);
        self[0] = t;
        t.setDaemon(true);
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(10));
        if (t.isAlive()) {
            throw new AssertionError("the recording thread did not end within 10 s of host time; its waits: " + t.waits());
        }
        if (failure[0] instanceof Exception e) {
            throw e;
        }
        if (failure[0] instanceof Error e) {
            throw e;
        }
        return t;
    }

    /** {@return what the body given to {@link #run} returned} */
    public Object result() {
        return result;
    }

    /** {@return this thread's clock now} */
    public long clock() {
        return recorder.clock;
    }

    /** {@return the label of every spin so far, in order (null for an unlabelled one)} */
    public List<String> spins() {
        synchronized (recorder.spins) {
            return new ArrayList<>(recorder.spins);
        }
    }

    /** {@return the length asked of every park so far, in order} */
    public List<Long> parks() {
        synchronized (recorder.parks) {
            return new ArrayList<>(recorder.parks);
        }
    }

    /** {@return the blocker of every park so far, in order} */
    public List<Object> blockers() {
        synchronized (recorder.blockers) {
            return new ArrayList<>(recorder.blockers);
        }
    }

    /** {@return how many wakes it received} */
    public int wakes() {
        return recorder.wakes.get();
    }

    /** {@return every wait by what it awaited: a spin's label or a park's blocker as text ("null" when none)} */
    public Map<String, Long> waits() {
        Map<String, Long> waits = new LinkedHashMap<>();
        for (String s : spins()) {
            waits.merge(String.valueOf(s), 1L, Long::sum);
        }
        for (Object b : blockers()) {
            waits.merge(String.valueOf(b), 1L, Long::sum);
        }
        return waits;
    }

    /**
     * {@return how many waits named {@code awaited}: a spin's label, or a park's blocker as text}
     *
     * @param awaited what was awaited
     */
    public long waits(String awaited) {
        return waits().getOrDefault(awaited, 0L);
    }

    /** The thread's clock and waits: a counter clock that records what the library asked of it. */
    private static final class Recorder extends ScheduledHandle {
        final long stepNanos;
        final List<String> spins = Collections.synchronizedList(new ArrayList<>());
        final List<Long> parks = Collections.synchronizedList(new ArrayList<>());
        final List<Object> blockers = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger wakes = new AtomicInteger();
        volatile boolean permit;
        long clock;

        Recorder(long startNanos, long stepNanos) {
            this.clock = startNanos;
            this.stepNanos = stepNanos;
        }

        @Override
        protected long clockNanos() {
            return clock;
        }

        @Override
        protected void spin(String awaited) {
            spins.add(awaited);
            clock += stepNanos;
            Thread.onSpinWait();
        }

        @Override
        protected void park(Object blocker, long nanos) {
            parks.add(nanos);
            blockers.add(blocker);
            if (permit) {
                permit = false;
                return;
            }
            clock += nanos;
        }

        @Override
        protected void wake() {
            wakes.incrementAndGet();
            permit = true;
        }

        @Override
        protected void charge(long nanos) {
            clock += nanos;
        }

        @Override
        protected void localAccess() {
        }

        @Override
        protected Thread newSibling(String name, Runnable task) {
            throw new UnsupportedOperationException("a recording thread runs alone");
        }

        @Override
        protected boolean awaitEnd(Thread other, long nanos) {
            throw new UnsupportedOperationException("a recording thread runs alone");
        }
    }
}
