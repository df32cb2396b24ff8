package io.remus.alock;

import io.remus.core.time.ThreadTime;

/**
 * A deadline for a lock wait that its caller may move while the lock waits ({@link Lock#lock(WaitDeadline)}):
 * for a caller whose right to touch the lock word runs out at an instant it can push back, e.g. a reclaimer's
 * lease on the block the word lies in, which the caller renews while it waits. The lock asks for the deadline
 * on every pause of its waits, from the waiting thread; the answer must not block.
 */
@FunctionalInterface
public interface WaitDeadline {
    /**
     * Gives the current deadline of the wait.
     *
     * @param nowNanos {@link ThreadTime#nanoTime()} at the pause: the waiting thread's clock, virtual on the
     *                 simulator's virtual-time scheduler
     * @return the instant of {@link ThreadTime#nanoTime()} by which the wait must end
     */
    long deadlineNanos(long nowNanos);
}
