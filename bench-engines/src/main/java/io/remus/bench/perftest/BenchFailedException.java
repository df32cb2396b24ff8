package io.remus.bench.perftest;

/** A benchmark could not finish: an error completion, a refused operation, or a bad setting. */
public class BenchFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed and what to do about it */
    public BenchFailedException(String message) {
        super(message);
    }
}
