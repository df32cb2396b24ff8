package io.remus.alock;

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
     * @param nowNanos {@link System#nanoTime()} at the pause
     * @return the instant of {@link System#nanoTime()} by which the wait must end
     */
    long deadlineNanos(long nowNanos);
}
