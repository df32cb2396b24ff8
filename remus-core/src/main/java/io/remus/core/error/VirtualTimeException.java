package io.remus.core.error;

import java.util.List;

/**
 * A run on the simulator's virtual-time scheduler ended before its threads did: {@link VirtualTimeDeadlockException}
 * (every thread waits and nothing can change) or {@link VirtualTimeBudgetException} (the run outlived its virtual or
 * host time budget). The message names the seed and, per thread still running, what it waits for; {@link #seed()}
 * reruns the same interleaving.
 */
public class VirtualTimeException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** The run's seed. */
    private final long seed;
    /** Per thread still running, its name and what it waits for. */
    private final List<String> waits;

    /**
     * Creates the exception.
     *
     * @param message what ended the run
     * @param seed    the run's seed
     * @param waits   per thread still running, its name and what it waits for
     */
    public VirtualTimeException(String message, long seed, List<String> waits) {
        super(message + " (virtual-time seed " + seed + "); threads:" + (waits.isEmpty() ? " none"
                : "\n  " + String.join("\n  ", waits)));
        this.seed = seed;
        this.waits = List.copyOf(waits);
    }

    /** {@return the seed of the run, which replays it} */
    public long seed() {
        return seed;
    }

    /** {@return per thread still running when the run ended, its name and what it waited for} */
    public List<String> waits() {
        return waits;
    }
}
