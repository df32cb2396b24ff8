package io.remus.check;

import io.remus.check.spec.SetSpec;
import org.junit.jupiter.api.Test;

import static io.remus.check.Ops.CHECKER;
import static io.remus.check.Ops.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SetSpecTest {
    private final SetSpec spec = new SetSpec();

    private static Ops interleavedKeys(boolean broken) {
        var h = new Ops();
        for (int k = 0; k < 20; k++) {
            long t = k * 10L;
            h.done(0, t, t + 5, "add", args(k), 1).done(1, t + 1, t + 6, "add", args(k), 0)
                    .done(2, t + 7, t + 8, "contains", args(k), broken && k == 13 ? 0 : 1);
        }
        return h;
    }

    @Test
    void shouldAcceptOneOfTwoConcurrentAddsWinning() {
        var h = new Ops().done(0, 0, 10, "add", args(3), 0).done(1, 0, 10, "add", args(3), 1)
                .done(2, 11, 12, "contains", args(3), 1).done(2, 13, 14, "remove", args(3), 1)
                .done(2, 15, 16, "contains", args(3), 0);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectTwoConcurrentAddsBothWinning() {
        var h = new Ops().done(0, 0, 10, "add", args(3), 1).done(1, 0, 10, "add", args(3), 1);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldGiveTheSameVerdictWholeAndByKey() {
        for (boolean broken : new boolean[] {false, true}) {
            var h = interleavedKeys(broken).history();
            CheckResult whole = CHECKER.check(h, spec);
            CheckResult byKey = CHECKER.checkByKey(h, spec);
            Verdict expected = broken ? Verdict.NOT_LINEARIZABLE : Verdict.LINEARIZABLE;
            assertEquals(expected, whole.verdict(), whole.toString());
            assertEquals(expected, byKey.verdict(), byKey.toString());
            if (broken) {
                assertTrue(byKey.explanation().startsWith("key 13 "), byKey.explanation());
            }
        }
    }

    @Test
    void shouldRejectRemoveOfAbsentElementReportedAsSuccess() {
        var h = new Ops().done(0, 0, 1, "remove", args(8), 1);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.checkByKey(h.history(), spec).verdict());
    }
}
