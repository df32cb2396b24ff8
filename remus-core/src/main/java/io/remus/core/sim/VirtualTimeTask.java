package io.remus.core.sim;

import io.remus.core.time.ScheduledHandle;

/**
 * A thread of a {@link VirtualTimeScheduler} run as the scheduler sees it: its virtual clock and its place in the
 * scheduler's queue, whichever {@link Carriers} run it. {@link #thread} is the Java thread: a {@link VirtualTimeThread}
 * (platform carriers), which carries this task, or a virtual thread bound to this task (virtual carriers). Its
 * fields other than {@link #turn} are guarded by the scheduler's lock, or read by the thread itself while it runs.
 */
final class VirtualTimeTask extends ScheduledHandle {
    final VirtualTimeScheduler scheduler;
    /** The Java thread that runs it. */
    Thread thread;
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

    VirtualTimeTask(VirtualTimeScheduler scheduler, long clock) {
        this.scheduler = scheduler;
        this.clock = clock;
    }

    /** {@return the task of the current thread when it is a thread of some virtual-time run, else null} */
    static VirtualTimeTask ofCurrentThread() {
        return ScheduledHandle.current() instanceof VirtualTimeTask task ? task : null;
    }

    /** {@return the Java thread's name} */
    String name() {
        return thread.getName();
    }

    /**
     * What the virtual thread runs: waits for its turn, runs {@code body}, and leaves the run.
     *
     * @param body the user's task
     */
    void runVirtual(Runnable body) {
        bindCurrentThread();
        Throwable failure = null;
        try {
            scheduler.awaitTurn(this);
            body.run();
        } catch (Throwable e) {
            failure = e;
        } finally {
            try {
                scheduler.end(this, failure);
            } finally {
                unbindCurrentThread();
                detachThread();
            }
        }
    }

    /** Makes {@code ThreadTime.unpark} of the virtual thread reach {@link #wake()}. */
    void attachThread() {
        attach(thread);
    }

    /** Undoes {@link #attachThread()}. */
    void detachThread() {
        detach(thread);
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
        return scheduler.newThread(this, name, task);
    }

    @Override
    protected boolean awaitEnd(Thread other, long nanos) {
        return scheduler.awaitEnd(this, other, nanos);
    }
}
