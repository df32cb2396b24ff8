package io.remus.core.sim;

import io.remus.core.time.ScheduledThread;

/**
 * A thread of a {@link VirtualTimeScheduler} run: its virtual clock and its place in the scheduler's queue. Its
 * fields other than {@link #turn} are guarded by the scheduler's lock, or read by the thread itself while it runs.
 */
final class VirtualTimeThread extends ScheduledThread {
    final VirtualTimeScheduler scheduler;
    /** The virtual clock; while queued, the time at which it runs next. */
    long clock;
    /** Orders threads ready at the same time: random by the seed, or the order they became ready. */
    long tie;
    /** The order in which it became ready, the last tie-break. */
    long sequence;
    boolean queued;
    boolean started;
    boolean ended;
    /** Inside a wait: a check of a wait loop or a park. */
    boolean waiting;
    /** Parked: {@link #wake()} moves it to the waker's time. */
    boolean parked;
    /** A {@link #wake()} came while it was not parked: its next park returns at once. */
    boolean permit;
    /** Where the current park started. */
    long parkedAt;
    String awaited;
    Object blocker;
    /** Checks of wait loops in a row with no work done anywhere. */
    long quietChecks;
    /** The scheduler's work count at its last check. */
    long seenWork;
    /**
     * Set by an empty completion-queue poll: nothing it polled changes before this time, so its next wait-loop check
     * may sleep until then; 0 when unset. Any other call into the scheduler clears it.
     */
    long idleUntil;
    /** Set by the thread that hands it the processor. */
    volatile boolean turn;

    VirtualTimeThread(VirtualTimeScheduler scheduler, Runnable task, String name, long clock) {
        super(task, name);
        this.scheduler = scheduler;
        this.clock = clock;
        setDaemon(true);
    }

    @Override
    public void start() {
        scheduler.register(this);
        super.start();
    }

    /** Starts the Java thread of the run's first thread, which the scheduler registered itself. */
    void startFirst() {
        super.start();
    }

    @Override
    public void run() {
        Throwable failure = null;
        try {
            scheduler.awaitTurn(this);
            super.run();
        } catch (Throwable e) {
            failure = e;
        } finally {
            scheduler.end(this, failure);
        }
    }

    @Override
    protected long clockNanos() {
        return clock;
    }

    @Override
    protected void spin(String what) {
        scheduler.spin(this, what);
    }

    @Override
    protected void park(Object what, long nanos) {
        scheduler.park(this, what, nanos);
    }

    @Override
    protected void wake() {
        scheduler.wake(this);
    }

    @Override
    protected void charge(long nanos) {
        scheduler.charge(this, nanos);
    }

    @Override
    protected void localAccess() {
        scheduler.localAccess(this);
    }

    @Override
    protected Thread newSibling(String name, Runnable task) {
        return new VirtualTimeThread(scheduler, task, name, clock);
    }

    @Override
    protected boolean awaitEnd(Thread other, long nanos) {
        return scheduler.awaitEnd(this, other, nanos);
    }
}
