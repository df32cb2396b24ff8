package io.remus.check;

import io.remus.check.spec.RegisterSpec;
import org.junit.jupiter.api.Test;

import static io.remus.check.Ops.CHECKER;
import static io.remus.check.Ops.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegisterSpecTest {
    private final RegisterSpec spec = new RegisterSpec(1);

    @Test
    void shouldAcceptReadOfInitialValueBeforeAnyWrite() {
        var h = new Ops().done(0, 0, 1, "read", args(), 0).done(1, 2, 3, "write", args(5)).done(0, 4, 5, "read", args(), 5);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectStaleReadAfterWriteReturned() {
        var h = new Ops().done(1, 0, 10, "write", args(5)).done(0, 11, 12, "read", args(), 0);
        CheckResult r = CHECKER.check(h.history(), spec);
        assertEquals(Verdict.NOT_LINEARIZABLE, r.verdict());
        assertTrue(r.explanation().contains("read() -> (0)"), r.explanation());
    }

    @Test
    void shouldAcceptEitherValueWhenReadOverlapsWrite() {
        for (long seen : new long[] {0, 5}) {
            var h = new Ops().done(1, 0, 10, "write", args(5)).done(0, 5, 15, "read", args(), seen);
            assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict(), "read " + seen);
        }
    }

    @Test
    void shouldRejectNewOldInversionOfTwoSequentialReads() {
        // Both reads overlap the write, but the first sees the new value and the second, which
        // starts after the first returned, the old one.
        var h = new Ops().done(1, 0, 100, "write", args(5))
                .done(0, 10, 20, "read", args(), 5)
                .done(2, 30, 40, "read", args(), 0);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectValueNobodyWrote() {
        var h = new Ops().done(1, 0, 10, "write", args(5)).done(2, 0, 10, "write", args(6))
                .done(0, 5, 15, "read", args(), 7);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldAcceptPendingWriteSeenOrNot() {
        var seen = new Ops().pending(1, 0, "write", 9).done(0, 50, 60, "read", args(), 9).done(0, 70, 80, "read", args(), 9);
        var unseen = new Ops().pending(1, 0, "write", 9).done(0, 50, 60, "read", args(), 0);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(seen.history(), spec).verdict());
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(unseen.history(), spec).verdict());
    }

    @Test
    void shouldRejectPendingWriteSeenThenUnseen() {
        // A pending write takes effect once or never: seen by one read, it cannot vanish for a later one.
        var h = new Ops().pending(1, 0, "write", 9).done(0, 50, 60, "read", args(), 9).done(0, 70, 80, "read", args(), 0);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldCheckTwoWordValuesWhole() {
        var spec2 = new RegisterSpec(2);
        var whole = new Ops().done(1, 0, 10, "write", args(1, 1)).done(2, 0, 10, "write", args(2, 2))
                .done(0, 5, 15, "read", args(), 2, 2);
        var torn = new Ops().done(1, 0, 10, "write", args(1, 1)).done(2, 0, 10, "write", args(2, 2))
                .done(0, 5, 15, "read", args(), 1, 2);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(whole.history(), spec2).verdict());
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(torn.history(), spec2).verdict());
    }

    @Test
    void shouldNameBadArgumentCount() {
        var h = new Ops().done(1, 0, 10, "write", args(1, 2));
        var e = assertThrows(HistoryFormatException.class, () -> CHECKER.check(h.history(), spec));
        assertTrue(e.getMessage().contains("write takes 1 argument"), e.getMessage());
    }
}
