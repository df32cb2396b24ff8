package io.remus.check;

import java.util.List;
import java.util.Objects;

/**
 * The result of a linearizability check.
 *
 * @param verdict        linearizable, not, or unknown (the budget ran out)
 * @param operations     how many operations the history had
 * @param configurations how many configurations the search explored
 * @param witness        for {@link Verdict#NOT_LINEARIZABLE}, the operations involved in the
 *                       violation (see {@link LinearizabilityChecker}); otherwise empty
 * @param explanation    a human-readable account of the verdict
 */
public record CheckResult(Verdict verdict, int operations, long configurations, List<Operation> witness,
                          String explanation) {
    /** Checks the components and copies the witness. */
    public CheckResult {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(witness, "witness");
        Objects.requireNonNull(explanation, "explanation");
        witness = List.copyOf(witness);
    }

    /** {@return whether the verdict is {@link Verdict#LINEARIZABLE}} */
    public boolean isLinearizable() {
        return verdict == Verdict.LINEARIZABLE;
    }

    /**
     * {@return this result, when linearizable}
     * @throws NotLinearizableError when not linearizable or unknown, with the explanation
     */
    public CheckResult assertLinearizable() {
        if (verdict != Verdict.LINEARIZABLE) {
            throw new NotLinearizableError(this);
        }
        return this;
    }

    @Override
    public String toString() {
        return verdict + " (" + operations + " operations, " + configurations + " configurations explored): " + explanation;
    }
}
