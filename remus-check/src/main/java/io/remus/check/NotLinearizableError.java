package io.remus.check;

import java.util.Objects;

/**
 * What {@link CheckResult#assertLinearizable()} throws: an {@link AssertionError}, so a test
 * framework reports it as a failed test, whose message carries the verdict and the witness.
 */
public final class NotLinearizableError extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final transient CheckResult result;

    /**
     * Creates the error for a failed check; its message carries the verdict and the witness.
     *
     * @param result the check that did not find the history linearizable
     */
    public NotLinearizableError(CheckResult result) {
        super(Objects.requireNonNull(result, "result").toString());
        this.result = result;
    }

    /** {@return the check's result} */
    public CheckResult result() {
        return result;
    }
}
