package io.remus.check;

import io.remus.check.spec.CounterSpec;
import io.remus.check.spec.RegisterSpec;
import io.remus.check.spec.SetSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.remus.check.Ops.CHECKER;
import static io.remus.check.Ops.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LinearizabilityCheckerTest {
    /**
     * Pending adds of distinct powers of two and a later read of an impossible total: every subset
     * of the adds reaches its own state, so only exhausting them shows the violation.
     */
    private static Ops pendingAddsAndImpossibleRead(int threads) {
        var h = new Ops();
        for (int t = 0; t < threads; t++) {
            h.pending(t, t, "fetchAndAdd", 1L << t);
        }
        return h.done(threads, 1000, 1001, "read", args(), -1);
    }

    @Test
    void shouldReturnUnknownWhenConfigurationBudgetRunsOut() {
        var tight = new LinearizabilityChecker(new Budget(Duration.ofSeconds(30), 10));
        CheckResult unknown = tight.check(pendingAddsAndImpossibleRead(12).history(), new CounterSpec());
        assertEquals(Verdict.UNKNOWN, unknown.verdict(), unknown.toString());
        assertTrue(unknown.explanation().contains("configuration budget of 10"), unknown.explanation());
        var e = assertThrows(NotLinearizableError.class, unknown::assertLinearizable);
        assertTrue(e.getMessage().startsWith("UNKNOWN"), e.getMessage());
    }

    @Test
    void shouldReturnUnknownWhenTimeRunsOut() {
        var quick = new LinearizabilityChecker(new Budget(Duration.ofNanos(1), Long.MAX_VALUE));
        CheckResult r = quick.check(pendingAddsAndImpossibleRead(20).history(), new CounterSpec());
        assertEquals(Verdict.UNKNOWN, r.verdict(), r.toString());
        assertTrue(r.explanation().contains("time budget"), r.explanation());
    }

    @Test
    void shouldExhaustOverlappingOperationsWithMemoization() {
        // One configuration per subset of the 14 adds (2^14), where the orders number 14! and more.
        CheckResult r = CHECKER.check(pendingAddsAndImpossibleRead(14).history(), new CounterSpec());
        assertEquals(Verdict.NOT_LINEARIZABLE, r.verdict());
        assertTrue(r.configurations() >= (1 << 14) - 1 && r.configurations() <= 1 << 14, r.toString());
    }

    @Test
    void shouldNameTheReadAndTheWritesAroundItInTheWitness() {
        var h = new Ops();
        for (int i = 1; i <= 50; i++) {
            h.done(0, i * 10L, i * 10L + 5, "write", args(i));
            h.done(1, i * 10L + 6, i * 10L + 8, "read", args(), i == 37 ? 36 : i);
        }
        CheckResult r = CHECKER.check(h.history(), new RegisterSpec(1));
        assertEquals(Verdict.NOT_LINEARIZABLE, r.verdict());
        assertTrue(r.witness().stream().anyMatch(op -> op.kind().equals("read") && op.result()[0] == 36), r.explanation());
        assertTrue(r.witness().stream().anyMatch(op -> op.kind().equals("write") && op.arguments()[0] == 37), r.explanation());
        assertTrue(r.witness().size() <= 8, r.explanation());
        assertTrue(r.explanation().contains("specification: (37)"), r.explanation());
        var e = assertThrows(NotLinearizableError.class, r::assertLinearizable);
        assertTrue(e.getMessage().contains("read() -> (36)"), e.getMessage());
    }

    @Test
    void shouldRefuseNestedOperationsOfOneThreadAndOnesAfterItsPendingOperation() {
        var nested = new Ops().done(0, 0, 20, "read", args(), 0).done(0, 5, 15, "read", args(), 0);
        assertThrows(HistoryFormatException.class, () -> CHECKER.check(nested.history(), new RegisterSpec(1)));
        var afterPending = new Ops().pending(0, 0, "read").done(0, 5, 15, "read", args(), 0);
        assertThrows(HistoryFormatException.class, () -> CHECKER.check(afterPending.history(), new RegisterSpec(1)));
    }

    @Test
    void shouldKeepProgramOrderWhenOperationsOfOneThreadTouchOrOverlapInTime() {
        // One thread adds 1 (returns 0), then reads 0: no sequential order of that thread explains the read,
        // though the read's invocation reading equals the add's response reading (a coarse clock) ...
        var touching = new Ops().done(0, 0, 5, "fetchAndAdd", args(1), 0).done(0, 5, 7, "read", args(), 0);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(touching.history(), new CounterSpec()).verdict());
        // ... or the two overlap, as a merge widens another host's operations.
        var overlapping = new Ops().done(0, 0, 10, "fetchAndAdd", args(1), 0).done(0, 5, 15, "read", args(), 0);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(overlapping.history(), new CounterSpec()).verdict());
        var fine = new Ops().done(0, 0, 10, "fetchAndAdd", args(1), 0).done(0, 5, 15, "read", args(), 1);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(fine.history(), new CounterSpec()).verdict());
    }

    @Test
    void shouldRefuseCheckByKeyOfUnkeyedObject() {
        var h = new Ops().done(0, 0, 10, "read", args(), 0);
        assertThrows(IllegalArgumentException.class, () -> CHECKER.checkByKey(h.history(), new RegisterSpec(1)));
    }

    @Test
    void shouldAcceptEmptyAndAllPendingHistories() {
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(new Ops().history(), new SetSpec()).verdict());
        var h = new Ops().pending(0, 0, "add", 1).pending(1, 0, "remove", 1);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), new SetSpec()).verdict());
    }

    @Test
    void shouldCheckALongHistoryWithAnEarlyPendingOperationInBoundedStackAndMemory() {
        // 200,000 operations deep: a recursive search would overflow the stack, and a bit set of
        // all operations per configuration would take gigabytes.
        var h = new Ops().pending(1, 0, "fetchAndAdd", 0);
        for (int i = 0; i < 200_000; i++) {
            h.done(0, 2L * i + 1, 2L * i + 2, "fetchAndAdd", args(1), i);
        }
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), new CounterSpec()).verdict());
        h.done(0, 1_000_000, 1_000_001, "read", args(), 7);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), new CounterSpec()).verdict());
    }
}
