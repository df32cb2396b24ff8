package io.remus.core.sim;

import io.remus.core.time.ScheduledThread;

/**
 * A thread of a {@link VirtualTimeScheduler} run on {@link Carriers#PLATFORM} carriers: a platform thread that carries
 * its {@link VirtualTimeTask} as its clock and waits. Starting it registers it with the scheduler.
 */
final class VirtualTimeThread extends ScheduledThread {
    final VirtualTimeTask task;

    VirtualTimeThread(VirtualTimeTask task, Runnable body, String name) {
        super(body, name, task);
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
}
