package io.remus.check;

import io.remus.check.spec.MapSpec;
import org.junit.jupiter.api.Test;

import static io.remus.check.Ops.CHECKER;
import static io.remus.check.Ops.args;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MapSpecTest {
    private final MapSpec spec = new MapSpec();

    private static Ops interleavedKeys(boolean broken) {
        var h = new Ops();
        for (int k = 0; k < 20; k++) {
            long t = k * 10L;
            h.done(0, t, t + 5, "put", args(k, 100 + k, 7), 1).done(1, t + 1, t + 6, "put", args(k, 200 + k, 7), 0)
                    .done(2, t + 7, t + 8, "get", args(k), 1, broken && k == 11 ? 100 + k : 200 + k, 7);
        }
        return h;
    }

    @Test
    void shouldApplyPutGetRemoveSequentially() {
        var s = spec.initialState();
        var put = new Operation(0, 0, 0, MapSpec.PUT, args(5, 1, 2), args(1), 0, 1);
        var step = spec.apply(s, put);
        assertArrayEquals(args(1), step.result());
        var get = new Operation(1, 0, 0, MapSpec.GET, args(5), args(1, 1, 2), 2, 3);
        assertArrayEquals(args(1, 1, 2), spec.apply(step.state(), get).result());
        var replace = spec.apply(step.state(), new Operation(2, 0, 0, MapSpec.PUT, args(5, 9), args(0), 4, 5));
        assertArrayEquals(args(0), replace.result());
        assertArrayEquals(args(1, 9), spec.apply(replace.state(), get).result());
        var remove = spec.apply(replace.state(), new Operation(3, 0, 0, MapSpec.REMOVE, args(5), args(1), 6, 7));
        assertArrayEquals(args(1), remove.result());
        assertArrayEquals(args(0), spec.apply(remove.state(), get).result());
        assertEquals(spec.initialState(), remove.state());
    }

    @Test
    void shouldOrderTwoConcurrentPutsByWhichOneInserted() {
        var h = new Ops().done(0, 0, 10, "put", args(3, 1), 1).done(1, 0, 10, "put", args(3, 2), 0)
                .done(2, 11, 12, "get", args(3), 1, 2).done(2, 13, 14, "remove", args(3), 1)
                .done(2, 15, 16, "get", args(3), 0);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectTheInsertedValueSurvivingTheConcurrentReplace() {
        var h = new Ops().done(0, 0, 10, "put", args(3, 1), 1).done(1, 0, 10, "put", args(3, 2), 0)
                .done(2, 11, 12, "get", args(3), 1, 1);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectTwoConcurrentPutsBothInserting() {
        var h = new Ops().done(0, 0, 10, "put", args(3, 1), 1).done(1, 0, 10, "put", args(3, 2), 1);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectAValueComingBackAfterItWasReplaced() {
        var h = new Ops().done(0, 0, 1, "put", args(3, 1), 1).done(0, 2, 3, "put", args(3, 2), 0)
                .done(1, 4, 5, "get", args(3), 1, 2).done(1, 6, 7, "get", args(3), 1, 1);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.checkByKey(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectAValueSeenAfterItsRemoveCompleted() {
        var h = new Ops().done(0, 0, 1, "put", args(4, 8, 9), 1).done(0, 2, 3, "remove", args(4), 1)
                .done(1, 4, 5, "get", args(4), 1, 8, 9);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.checkByKey(h.history(), spec).verdict());
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
                assertTrue(byKey.explanation().startsWith("key 11 "), byKey.explanation());
            }
        }
    }

    @Test
    void shouldRefuseUnknownOperationsAndMissingKeys() {
        var s = spec.initialState();
        assertThrows(HistoryFormatException.class, () -> spec.apply(s, new Operation(0, 0, 0, "add", args(1), args(1), 0, 1)));
        assertThrows(HistoryFormatException.class, () -> spec.apply(s, new Operation(0, 0, 0, MapSpec.PUT, args(), args(1), 0, 1)));
        assertThrows(HistoryFormatException.class, () -> spec.apply(s, new Operation(0, 0, 0, MapSpec.GET, args(1, 2), args(0), 0, 1)));
    }
}
