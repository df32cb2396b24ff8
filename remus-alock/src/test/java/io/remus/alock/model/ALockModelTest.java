package io.remus.alock.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exhaustive model checking of ALock with 2 local and 2 remote threads, and proof that the checker
 * catches real bugs: ALock without its Peterson step, and the naive lock that mixes CPU and NIC
 * compare-and-swap on one word.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ALockModelTest {
    private static final long MAX_STATES = 3_000_000;

    @Test
    void shouldFindNoViolationOrDeadlockWhenTwoLocalAndTwoRemoteThreadsAcquireOnce() {
        ModelChecker.Result r = ModelChecker.check(new ALockModel(2, 2, 1, 1, 1, true), MAX_STATES);
        assertTrue(r.ok(), r.violation() + " after schedule " + r.schedule());
        assertTrue(r.states() > 1000, "explored " + r.states() + " states");
    }

    @Test
    void shouldFindNoViolationOrDeadlockWhenThreadsAcquireTwiceWithBudgetsAboveOne() {
        ModelChecker.Result r = ModelChecker.check(new ALockModel(2, 2, 2, 2, 2, true), MAX_STATES);
        assertTrue(r.ok(), r.violation() + " after schedule " + r.schedule());
    }

    @Test
    void shouldFindAViolationWhenCohortLeadersSkipThePetersonStep() {
        ModelChecker.Result r = ModelChecker.check(new ALockModel(2, 2, 1, 1, 1, false), MAX_STATES);
        assertFalse(r.ok());
        assertEquals("mutual exclusion violated", r.violation());
        assertFalse(r.schedule().isEmpty());
    }

    @Test
    void shouldFindAViolationWhenCpuAndNicCompareAndSwapShareOneWord() {
        ModelChecker.Result r = ModelChecker.check(new NaiveMixedLockModel(2, 2, 1), MAX_STATES);
        assertFalse(r.ok());
        assertEquals("mutual exclusion violated", r.violation());
    }

    @Test
    void shouldFindNoViolationWhenOnlyNicCompareAndSwapTouchesTheWord() {
        ModelChecker.Result r = ModelChecker.check(new NaiveMixedLockModel(0, 3, 2), MAX_STATES);
        assertTrue(r.ok(), r.violation() + " after schedule " + r.schedule());
    }
}
