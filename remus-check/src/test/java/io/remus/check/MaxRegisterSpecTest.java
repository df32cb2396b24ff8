package io.remus.check;

import io.remus.check.spec.MaxRegisterSpec;
import org.junit.jupiter.api.Test;

import static io.remus.check.Ops.CHECKER;
import static io.remus.check.Ops.args;
import static org.junit.jupiter.api.Assertions.assertEquals;

class MaxRegisterSpecTest {
    private final MaxRegisterSpec spec = new MaxRegisterSpec();

    @Test
    void shouldKeepTheLargestValue() {
        var h = new Ops().done(0, 0, 1, "writeMax", args(7)).done(0, 2, 3, "writeMax", args(3))
                .done(1, 4, 5, "read", args(), 7);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectReadBelowACompletedWrite() {
        var h = new Ops().done(0, 0, 1, "writeMax", args(7)).done(0, 2, 3, "writeMax", args(3))
                .done(1, 4, 5, "read", args(), 3);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldAcceptOverlappingWritesSeenInEitherOrder() {
        var h = new Ops().done(0, 0, 10, "writeMax", args(7)).done(1, 0, 10, "writeMax", args(9))
                .done(2, 1, 2, "read", args(), 7).done(2, 3, 4, "read", args(), 9);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectReadsGoingDown() {
        var h = new Ops().done(0, 0, 10, "writeMax", args(7)).done(1, 0, 10, "writeMax", args(9))
                .done(2, 1, 2, "read", args(), 9).done(2, 3, 4, "read", args(), 7);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldCompareUnsigned() {
        var h = new Ops().done(0, 0, 1, "writeMax", args(-1L)).done(0, 2, 3, "writeMax", args(5))
                .done(1, 4, 5, "read", args(), -1L);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }
}
