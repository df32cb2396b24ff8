package io.remus.core.sim;

import io.remus.core.time.ScheduledThread;

/**
 * A thread of a {@link VirtualTimeScheduler} run on {@link Carriers#PLATFORM} carriers: a platform thread whose clock
 * and waits are its {@link VirtualTimeTask}'s. Starting it registers it with the scheduler.
 */
final class VirtualTimeThread extends ScheduledThread {
    final VirtualTimeTask task;

    VirtualTimeThread(VirtualTimeTask task, Runnable body, String name) {
        super(body, name);
        this.task = task;
        task.thread = this;
        setDaemon(true);
    }

    @Override
    public void start() {
        task.scheduler.register(task);
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
            task.scheduler.awaitTurn(task);
            super.run();
        } catch (Throwable e) {
            failure = e;
        } finally {
            task.scheduler.end(task, failure);
        }
    }

    @Override
    protected long clockNanos() {
        return task.clock;
    }

    @Override
    protected void spin(String what) {
        task.spin(what);
    }

    @Override
    protected void park(Object what, long nanos) {
        task.park(what, nanos);
    }

    @Override
    protected void wake() {
        task.wake();
    }

    @Override
    protected void charge(long nanos) {
        task.charge(nanos);
    }

    @Override
    protected void localAccess() {
        task.localAccess();
    }

    @Override
    protected Thread newSibling(String name, Runnable body) {
        return task.newSibling(name, body);
    }

    @Override
    protected boolean awaitEnd(Thread other, long nanos) {
        return task.awaitEnd(other, nanos);
    }
}
