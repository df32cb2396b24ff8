package io.remus.ds.set;

import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.LeaseExpiredException;
import io.remus.ds.reclaim.Reclaimer;

/**
 * How every call of a list-based set ({@link LockFreeListSet}, {@link LockFreeSkipListSet}, {@link LazyListSet}) runs
 * under its thread's reclaimer: it enters a guard and makes one {@link Attempt} in it; when the attempt answers that
 * the guard's lease ran out, the call closes that guard and makes the next attempt in a fresh one, until an attempt
 * answers {@link #TRUE} or {@link #FALSE}. The attempt checks the guard itself (after every READ, before each
 * compare-and-swap), so the first guard is not checked here; every later one is ({@link Guard#check()}) before its
 * attempt. A guard entered inside an outer guard of the caller is that outer guard: when its lease ran out no fresh
 * guard can be had, and the call throws {@link LeaseExpiredException}, unless its last attempt had already taken
 * effect ({@link #RESTART_TOOK_EFFECT}), when it returns true. The reclaimer's enter and close are the only cost it
 * adds; it allocates nothing.
 */
final class GuardedCall {
    /** An attempt's answer: the call returns false. */
    static final int FALSE = 0;
    /** An attempt's answer: the call returns true. */
    static final int TRUE = 1;
    /** An attempt's answer: the guard's lease ran out; the call goes on in a fresh guard. */
    static final int RESTART = -1;
    /**
     * An attempt's answer: the call took effect, and returns true once done, but the guard's lease ran out before
     * the attempt finished what follows (a remove's unlinking); the call goes on in a fresh guard, and returns true
     * when the lease of an outer guard of the caller ran out.
     */
    static final int RESTART_TOOK_EFFECT = -2;

    /** One attempt of a call, inside one guard. */
    @FunctionalInterface
    interface Attempt {
        /**
         * Tries the call once.
         *
         * @param g   the attempt's guard, entered for it
         * @param key the call's key
         * @return {@link #TRUE}, {@link #FALSE}, {@link #RESTART} or {@link #RESTART_TOOK_EFFECT}
         */
        int attempt(Guard g, long key);
    }

    private GuardedCall() {
    }

    /**
     * Runs {@code attempt} on {@code key}, each try in its own guard of {@code reclaimer}, until it answers true or
     * false (see the class).
     *
     * @param reclaimer the handle's reclaimer
     * @param attempt   one try of the call
     * @param key       the call's key
     * @return the answer
     * @throws LeaseExpiredException when the lease of an outer guard of the caller ran out and the call had not
     *                               taken effect
     */
    static boolean run(Reclaimer reclaimer, Attempt attempt, long key) {
        boolean again = false;
        boolean tookEffect = false;
        while (true) {
            try (Guard g = reclaimer.enter()) {
                if (again) {
                    try {
                        g.check();
                    } catch (LeaseExpiredException e) {
                        if (tookEffect) {
                            return true;
                        }
                        throw e;
                    }
                }
                int r = attempt.attempt(g, key);
                if (r == TRUE || r == FALSE) {
                    return r == TRUE;
                }
                tookEffect = r == RESTART_TOOK_EFFECT;
            }
            again = true;
        }
    }
}
