package io.remus.alock;

import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.Objects;

/**
 * Knobs of the locks.
 *
 * @param localBudget    ALock: how many times in a row the local cohort may hold the lock before
 *                       its next waiter must re-arbitrate with the remote cohort, at least 1
 * @param remoteBudget   ALock: the same for the remote cohort, at least 1
 * @param acquireTimeout the bound on every wait inside {@link Lock#lock()} and {@link Lock#unlock()}:
 *                       positive and at most {@link Timeouts#MAX_FINITE}, or {@link Timeouts#FOREVER}
 *                       for waits without end (a lock whose holder died then hangs its waiters
 *                       instead of failing them with {@link LockTimeoutException})
 * @param maxHeldLocks   how many queue-lock handles of one context may hold (or wait for) a lock at
 *                       once: how many of the context's queue nodes may be in use, at least 1 (a node
 *                       left behind by a wait that timed out does not count)
 */
public record LockOptions(long localBudget, long remoteBudget, Duration acquireTimeout, int maxHeldLocks) {
    /**
     * Validates the knobs.
     *
     * @throws NullPointerException when {@code acquireTimeout} is null
     * @throws BadArgumentException naming the knob and its value when one is out of range
     */
    public LockOptions {
        Objects.requireNonNull(acquireTimeout, "acquireTimeout");
        if (localBudget < 1 || remoteBudget < 1) {
            throw new BadArgumentException("lock budgets must be at least 1, got local " + localBudget
                    + " and remote " + remoteBudget);
        }
        Timeouts.require(acquireTimeout, "acquireTimeout");
        if (maxHeldLocks < 1 || maxHeldLocks > 1024) {
            throw new BadArgumentException("maxHeldLocks must be 1..1024, got " + maxHeldLocks);
        }
    }

    /** {@return budgets of 8 passes per cohort, a 10 s acquire timeout, up to 4 locks held at once} */
    public static LockOptions defaults() {
        return new LockOptions(8, 8, Duration.ofSeconds(10), 4);
    }

    /**
     * Sets the ALock cohorts' budgets.
     *
     * @param local  the local cohort's budget, as {@link #localBudget()} describes
     * @param remote the remote cohort's budget, as {@link #remoteBudget()} describes
     * @return a copy with them
     */
    public LockOptions withBudgets(long local, long remote) {
        return new LockOptions(local, remote, acquireTimeout, maxHeldLocks);
    }

    /**
     * Sets the acquire timeout.
     *
     * @param timeout the acquire timeout, as {@link #acquireTimeout()} describes
     * @return a copy with it
     */
    public LockOptions withAcquireTimeout(Duration timeout) {
        return new LockOptions(localBudget, remoteBudget, timeout, maxHeldLocks);
    }

    /**
     * Sets how many locks may be held at once.
     *
     * @param max how many locks may be held at once
     * @return a copy with it
     */
    public LockOptions withMaxHeldLocks(int max) {
        return new LockOptions(localBudget, remoteBudget, acquireTimeout, max);
    }
}
