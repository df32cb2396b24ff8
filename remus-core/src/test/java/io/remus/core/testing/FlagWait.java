package io.remus.core.testing;

import io.remus.core.time.ThreadTime;

/**
 * A wait loop outside the scheduler's packages, so that a virtual-time report of where a thread waits names a frame of
 * it.
 */
public final class FlagWait {
    private FlagWait() {
    }

    /**
     * Checks {@code flags[index]} in a wait loop of {@link ThreadTime} until it is set.
     *
     * @param flags   the flags
     * @param index   the flag awaited
     * @param awaited what is awaited, for reports
     */
    public static void await(boolean[] flags, int index, String awaited) {
        while (!flags[index]) {
            ThreadTime.onSpinWait(awaited);
        }
    }
}
