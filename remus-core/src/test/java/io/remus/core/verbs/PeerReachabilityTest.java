package io.remus.core.verbs;

import io.remus.core.error.PeerUnreachableException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The connect timeout covers a peer's start only; a peer lost after it was reached gets bounded attempts and back-off. */
class PeerReachabilityTest {
    private static final Duration CONNECT = Duration.ofMinutes(4);
    private static final Duration ATTEMPT = Duration.ofSeconds(2);
    private static final RuntimeException REJECTED = new RuntimeException("rejected");

    private final AtomicLong now = new AtomicLong(1_000);
    private final PeerReachability reach = new PeerReachability(now::get);

    @Test
    void shouldWaitTheConnectTimeoutForAPeerNeverReached() {
        PeerReachability.Budget b = reach.budget(3, CONNECT, ATTEMPT);
        assertEquals(CONNECT, b.timeout());
        assertTrue(b.retry());
        reach.failed(3, b, REJECTED);
        assertEquals(new PeerReachability.Budget(CONNECT, true), reach.budget(3, CONNECT, ATTEMPT),
                "a peer never reached may still be starting: no back-off");
    }

    @Test
    void shouldMakeOneBoundedAttemptToAPeerReachedBefore() {
        reach.reached(3);
        assertEquals(new PeerReachability.Budget(ATTEMPT, false), reach.budget(3, CONNECT, ATTEMPT));
        assertEquals(new PeerReachability.Budget(Duration.ofSeconds(1), false),
                reach.budget(3, Duration.ofSeconds(1), ATTEMPT), "never longer than the connect timeout");
        assertEquals(new PeerReachability.Budget(CONNECT, true), reach.budget(4, CONNECT, ATTEMPT), "per peer");
    }

    @Test
    void shouldRefuseAtOnceDuringABackOffThatDoublesUpToItsCap() {
        reach.reached(3);
        long expected = ATTEMPT.toNanos();
        for (int failure = 1; failure <= PeerReachability.MAX_DOUBLINGS + 2; failure++) {
            PeerReachability.Budget b = reach.budget(3, CONNECT, ATTEMPT);
            reach.failed(3, b, REJECTED);
            now.addAndGet(expected - 1);
            PeerUnreachableException e = assertThrows(PeerUnreachableException.class, () -> reach.budget(3, CONNECT, ATTEMPT));
            assertEquals(3, e.nodeId());
            assertTrue(e.getMessage().contains("failed " + failure + " time(s)") && e.getMessage().contains("rejected"),
                    e.getMessage());
            now.incrementAndGet();
            assertFalse(reach.budget(3, CONNECT, ATTEMPT).retry(), "after failure " + failure + " the back-off ends");
            expected = Math.min(expected * 2, ATTEMPT.toNanos() << PeerReachability.MAX_DOUBLINGS);
        }
    }

    @Test
    void shouldClearTheBackOffOnceConnectedAgain() {
        reach.reached(3);
        reach.failed(3, reach.budget(3, CONNECT, ATTEMPT), REJECTED);
        assertThrows(PeerUnreachableException.class, () -> reach.budget(3, CONNECT, ATTEMPT));
        reach.reached(3);
        assertEquals(new PeerReachability.Budget(ATTEMPT, false), reach.budget(3, CONNECT, ATTEMPT));
        reach.failed(3, reach.budget(3, CONNECT, ATTEMPT), REJECTED);
        now.addAndGet(ATTEMPT.toNanos());
        assertFalse(reach.budget(3, CONNECT, ATTEMPT).retry(), "the back-off starts over at one attempt's bound");
    }
}
