package io.remus.bench.perftest;

/** A benchmark waited longer than its {@code --timeout} for a completion or for the peer. */
public final class BenchTimeoutException extends BenchFailedException {
    private static final long serialVersionUID = 1L;

    /** @param message what was awaited */
    public BenchTimeoutException(String message) {
        super(message);
    }
}
