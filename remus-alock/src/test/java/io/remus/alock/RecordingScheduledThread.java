package io.remus.alock;

import io.remus.core.time.ScheduledThread;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ScheduledThread} without a scheduler, for tests of what the library asks of one: its clock is a
 * counter that only its own waits move (a spin by {@value #SPIN_NANOS} ns, a park by its whole length unless a
 * wake came first), and it records every spin's label, every park and every wake. It runs alone: nothing else
 * moves its clock, and it never waits for another thread.
 */
public final class RecordingScheduledThread extends ScheduledThread {
    /** How far one spin moves the clock. */
    public static final long SPIN_NANOS = 100;

    private final List<String> spins = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> parks = Collections.synchronizedList(new ArrayList<>());
    private final List<Object> blockers = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger wakes = new AtomicInteger();
    private volatile boolean permit;
    private long clock;

    /**
     * An unstarted thread whose clock starts at {@code startNanos}.
     *
     * @param task       what it runs
     * @param startNanos its clock at start
     */
    public RecordingScheduledThread(Runnable task, long startNanos) {
        super(task, "recording-scheduled");
        this.clock = startNanos;
    }

    /**
     * Runs {@code body} on a new recording thread whose clock starts at {@code startNanos}, and returns it once
     * the body ended (within 10 s).
     *
     * @param startNanos the clock at start
     * @param body       what it runs; its failure is rethrown as the cause of an {@link AssertionError}
     * @return the thread, ended
     */
    public static RecordingScheduledThread run(long startNanos, Callable<?> body) throws InterruptedException {
        Throwable[] failure = new Throwable[1];
        RecordingScheduledThread t = new RecordingScheduledThread(() -> {
            try {
                body.call();
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, startNanos);
        t.setDaemon(true);
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(10));
        if (t.isAlive()) {
            throw new AssertionError("the body did not end within 10 s");
        }
        if (failure[0] != null) {
            throw new AssertionError("the body failed", failure[0]);
        }
        return t;
    }

    /** {@return this thread's clock now} */
    public long clock() {
        return clock;
    }

    /** {@return the label of every spin so far, in order (null for an unlabelled one)} */
    public List<String> spins() {
        synchronized (spins) {
            return new ArrayList<>(spins);
        }
    }

    /** {@return the length asked of every park so far, in order} */
    public List<Long> parks() {
        synchronized (parks) {
            return new ArrayList<>(parks);
        }
    }

    /** {@return the blocker of every park so far, in order} */
    public List<Object> blockers() {
        synchronized (blockers) {
            return new ArrayList<>(blockers);
        }
    }

    /** {@return how many wakes it received} */
    public int wakes() {
        return wakes.get();
    }

    @Override
    protected long clockNanos() {
        return clock;
    }

    @Override
    protected void spin(String awaited) {
        spins.add(awaited);
        clock += SPIN_NANOS;
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
    protected Thread newSibling(String name, Runnable task) {
        throw new UnsupportedOperationException("a recording thread runs alone");
    }

    @Override
    protected boolean awaitEnd(Thread other, long nanos) {
        throw new UnsupportedOperationException("a recording thread runs alone");
    }
}
