package io.remus.core.error;

import java.util.List;

/**
 * A virtual-time run outlived its budget: its virtual clock passed the virtual-time budget, its host time passed
 * the host budget, or one thread ran (or blocked outside the scheduler) for the host budget without reaching a
 * wait. The message says which, and names each thread still running and what it waits for.
 */
public class VirtualTimeBudgetException extends VirtualTimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which budget ran out
     * @param seed    the run's seed
     * @param waits   per thread still running, its name and what it waits for
     */
    public VirtualTimeBudgetException(String message, long seed, List<String> waits) {
        super(message, seed, waits);
    }
}
