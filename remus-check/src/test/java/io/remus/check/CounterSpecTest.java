package io.remus.check;

import io.remus.check.spec.CounterSpec;
import org.junit.jupiter.api.Test;

import static io.remus.check.Ops.CHECKER;
import static io.remus.check.Ops.args;
import static org.junit.jupiter.api.Assertions.assertEquals;

class CounterSpecTest {
    private final CounterSpec spec = new CounterSpec();

    @Test
    void shouldAcceptConcurrentFetchAndAddsInEitherOrder() {
        var h = new Ops().done(0, 0, 10, "fetchAndAdd", args(1), 1).done(1, 0, 10, "fetchAndAdd", args(1), 0)
                .done(2, 11, 12, "read", args(), 2);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectTwoFetchAndAddsReturningTheSameValue() {
        var h = new Ops().done(0, 0, 10, "fetchAndAdd", args(1), 0).done(1, 0, 10, "fetchAndAdd", args(1), 0);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectFetchAndAddOrderedAgainstRealTime() {
        // The second add starts after the first returned, so it cannot be the one that saw 0.
        var h = new Ops().done(0, 0, 10, "fetchAndAdd", args(1), 1).done(1, 11, 20, "fetchAndAdd", args(1), 0);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldAcceptPendingAddThatTookEffect() {
        var h = new Ops().pending(0, 0, "fetchAndAdd", 5).done(1, 20, 30, "fetchAndAdd", args(1), 5)
                .done(1, 40, 50, "read", args(), 6);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectReadMissingACompletedAdd() {
        var h = new Ops().done(0, 0, 10, "fetchAndAdd", args(3), 0).done(1, 20, 30, "read", args(), 0);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }
}
