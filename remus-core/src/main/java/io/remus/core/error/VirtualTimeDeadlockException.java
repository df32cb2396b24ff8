package io.remus.core.error;

import java.util.List;

/**
 * Every thread of a virtual-time run waits, none has done any work for the run's quiet limit of virtual time, and
 * nothing is pending that could wake one: they wait on each other. The message names each thread and what it waits
 * for.
 */
public class VirtualTimeDeadlockException extends VirtualTimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what the scheduler saw
     * @param seed    the run's seed
     * @param waits   per thread, its name and what it waits for
     */
    public VirtualTimeDeadlockException(String message, long seed, List<String> waits) {
        super(message, seed, waits);
    }
}
