package io.remus.core.time;

import java.util.Objects;

/**
 * A platform thread whose clock and waits a scheduler decides instead of the host: the simulator's virtual-time
 * scheduler ({@code io.remus.core.sim.VirtualTimeScheduler}) runs its threads one at a time, each with a clock of
 * its own. The thread carries the {@link ScheduledHandle} that holds that clock and those waits; {@link ThreadTime}
 * finds it by one type check on the current thread and routes every clock reading and every wait of the library to
 * it. A scheduled Java virtual thread, which cannot be subclassed, is bound to its handle instead (see
 * {@link ScheduledHandle}).
 *
 * <p>A user never subclasses it: it is public only so that the simulator, in another package, can.
 */
public class ScheduledThread extends Thread {
    /** This thread's clock and waits. */
    final ScheduledHandle handle;

    /**
     * Creates an unstarted scheduled thread whose clock and waits are {@code handle}'s.
     *
     * @param task   what it runs
     * @param name   its name
     * @param handle its clock and waits
     * @throws NullPointerException when {@code handle} is null
     */
    protected ScheduledThread(Runnable task, String name, ScheduledHandle handle) {
        super(task, name);
        this.handle = Objects.requireNonNull(handle, "handle");
    }
}
