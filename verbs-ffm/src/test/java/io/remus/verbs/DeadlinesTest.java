package io.remus.verbs;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every wait of the verbs API turns its caller's timeout into a deadline without overflow. */
class DeadlinesTest {
    @Test
    void shouldSaturateTimeoutsTooLongForNanosecondsInsteadOfOverflowing() {
        for (Duration huge : List.of(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), Duration.ofDays(365L * 1000),
                Duration.ofNanos(Long.MAX_VALUE))) {
            long deadline = Deadlines.after(huge, "timeout");
            long left = deadline - System.nanoTime();
            assertTrue(left > 0 && left <= Deadlines.MAX_NANOS, huge + " gave " + left);
        }
    }

    @Test
    void shouldGiveAPassedDeadlineForZeroOrNegativeTimeouts() {
        for (Duration none : List.of(Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(Long.MIN_VALUE))) {
            assertTrue(Deadlines.after(none, "timeout") - System.nanoTime() <= 0, none.toString());
        }
    }

    @Test
    void shouldNameTheParameterWhenTheTimeoutIsNull() {
        assertEquals("establishTimeout",
                assertThrows(NullPointerException.class, () -> Deadlines.after(null, "establishTimeout")).getMessage());
    }
}
