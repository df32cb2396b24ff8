package io.remus.bench.object;

import io.remus.core.error.RemusException;

/**
 * A {@link SharingExperiment} counter returned or held a value that its increments rule out: an
 * increment returned less than the increments its own worker had applied, or a counter's final value
 * differs from the increments applied to it. It names the way, the counter and both values.
 */
public final class CounterMismatchException extends RemusException {
    /** @param message what differed, naming the way, the counter and the values */
    public CounterMismatchException(String message) {
        super(message);
    }
}
