package io.remus.ds.set;

import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.LeaseExpiredException;
import io.remus.ds.reclaim.Reclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The guard rules every set call runs under: one guard per attempt, a fresh one after each restart (checked, the
 * first not), and an outer guard's run-out lease thrown unless the call had taken effect.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class GuardedCallTest {
    /** A reclaimer whose guards record their entering, checking and closing; its "outer lease" can run out. */
    private static final class Recorder implements Reclaimer {
        final List<String> events = new ArrayList<>();
        boolean outerLeaseRanOut;
        int open;

        @Override
        public Guard enter() {
            int n = events.size();
            events.add("enter");
            open++;
            return new Guard() {
                @Override
                public boolean valid() {
                    return !outerLeaseRanOut;
                }

                @Override
                public void check() {
                    events.add("check");
                    if (outerLeaseRanOut) {
                        throw new LeaseExpiredException("the outer guard's lease ran out (guard " + n + ")");
                    }
                }

                @Override
                public long incarnation(long block) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public boolean validate(long block, long expected) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public void close() {
                    events.add("close");
                    open--;
                }
            };
        }

        @Override
        public void retire(long block, long size) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void reclaim() {
        }

        @Override
        public long unreclaimedBytes() {
            return 0;
        }

        @Override
        public long unreclaimedBlocks() {
            return 0;
        }

        @Override
        public long retiredBytes() {
            return 0;
        }

        @Override
        public void close() {
        }
    }

    /** Answers the given codes one per attempt, recording each attempt and the key it got. */
    private static GuardedCall.Attempt answering(Recorder r, int... codes) {
        int[] next = {0};
        return (g, key) -> {
            r.events.add("attempt " + key);
            return codes[next[0]++];
        };
    }

    @Test
    void shouldMakeOneAttemptInOneUncheckedGuardWhenItAnswers() {
        Recorder r = new Recorder();
        assertTrue(GuardedCall.run(r, answering(r, GuardedCall.TRUE), 7));
        assertEquals(List.of("enter", "attempt 7", "close"), r.events);
        Recorder r2 = new Recorder();
        assertFalse(GuardedCall.run(r2, answering(r2, GuardedCall.FALSE), 8));
        assertEquals(List.of("enter", "attempt 8", "close"), r2.events);
    }

    @Test
    void shouldStartOverInAFreshCheckedGuardAfterEachRestart() {
        Recorder r = new Recorder();
        assertFalse(GuardedCall.run(r, answering(r, GuardedCall.RESTART, GuardedCall.RESTART_TOOK_EFFECT,
                GuardedCall.FALSE), 3));
        assertEquals(List.of("enter", "attempt 3", "close", "enter", "check", "attempt 3", "close",
                "enter", "check", "attempt 3", "close"), r.events);
        assertEquals(0, r.open);
    }

    @Test
    void shouldThrowTheOuterGuardsLeaseWhenTheCallHadNotTakenEffect() {
        Recorder r = new Recorder();
        r.outerLeaseRanOut = true;
        assertThrows(LeaseExpiredException.class,
                () -> GuardedCall.run(r, answering(r, GuardedCall.RESTART, GuardedCall.TRUE), 5));
        assertEquals(List.of("enter", "attempt 5", "close", "enter", "check", "close"), r.events);
        assertEquals(0, r.open);
    }

    @Test
    void shouldReturnTrueWhenTheOuterGuardsLeaseRanOutAfterTheCallTookEffect() {
        Recorder r = new Recorder();
        r.outerLeaseRanOut = true;
        assertTrue(GuardedCall.run(r, answering(r, GuardedCall.RESTART_TOOK_EFFECT, GuardedCall.FALSE), 5));
        assertEquals(List.of("enter", "attempt 5", "close", "enter", "check", "close"), r.events);
        assertEquals(0, r.open);
    }
}
