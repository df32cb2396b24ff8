package io.remus.alock;

import io.remus.core.testing.RecordingScheduledThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On a thread of the virtual-time scheduler, {@link SpinBound} reads that thread's clock and waits through it
 * ({@link io.remus.core.time.ThreadTime}): its spins name what they await, its parks ask the scheduler, and its
 * deadlines are instants of that clock. {@link RecordingScheduledThread} stands in for the scheduler.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SpinBoundOnScheduledThreadTest {
    private static final long START = 1_000_000;
    private static final long SPIN = RecordingScheduledThread.SPIN_NANOS;

    @Test
    void shouldSpinNamingWhatIsAwaitedAndTimeOutByTheScheduledClock() throws Exception {
        int[] pauses = new int[1];
        LockTimeoutException[] thrown = new LockTimeoutException[1];
        RecordingScheduledThread t = RecordingScheduledThread.run(START, () -> {
            SpinBound spin = new SpinBound(Duration.ofNanos(64 * SPIN));
            spin.start();
            thrown[0] = assertThrows(LockTimeoutException.class, () -> {
                while (true) {
                    pauses[0]++;
                    spin.pause("hand-over of", "ALock 1:0x40");
                }
            });
            return null;
        });
        // the deadline is checked every 64th pause: at pause 64 the clock is 63 spins on (not past it), at 128 past
        assertEquals(128, pauses[0]);
        List<String> spins = t.spins();
        assertEquals(127, spins.size(), "every pause but the failing one waits through the scheduler");
        assertNull(spins.get(63), "the 64th pause yields");
        List<String> labelled = new ArrayList<>(spins);
        labelled.remove(63);
        assertEquals(Collections.nCopies(126, "hand-over of"), labelled);
        assertEquals(START + 127 * SPIN, t.clock());
        assertTrue(thrown[0].getMessage().contains("hand-over of ALock 1:0x40"), thrown[0].getMessage());
    }

    @Test
    void shouldParkThroughTheSchedulerUntilTheDeadlineOfItsClock() throws Exception {
        SpinBound[] bound = new SpinBound[1];
        RecordingScheduledThread t = RecordingScheduledThread.run(START, () -> {
            SpinBound spin = new SpinBound(Duration.ofMillis(5));
            bound[0] = spin;
            spin.start();
            spin.park("hand-over of", "ALock 1:0x40");
            // the recording park let the whole 5 ms pass: the deadline is reached, and the next park fails at once
            assertThrows(LockTimeoutException.class, () -> spin.park("hand-over of", "ALock 1:0x40"));
            return null;
        });
        assertEquals(List.of(5_000_000L), t.parks());
        assertSame(bound[0], t.blockers().get(0));
        assertEquals(START + 5_000_000, t.clock());
    }

    @Test
    void shouldEndAWaitAtACapGivenOnTheScheduledClock() throws Exception {
        int[] pauses = new int[1];
        RecordingScheduledThread.run(START, () -> {
            SpinBound spin = new SpinBound(Duration.ofSeconds(1));
            spin.cap(START + 5 * SPIN);
            spin.start();
            assertThrows(LockTimeoutException.class, () -> {
                while (true) {
                    pauses[0]++;
                    spin.pause("hand-over of", "ALock 1:0x40");
                }
            });
            return null;
        });
        // pause 6 sees the clock at the cap, pause 7 past it
        assertEquals(7, pauses[0]);
    }

    @Test
    void shouldAskAMovingCapWithTheScheduledClock() throws Exception {
        List<Long> asked = new ArrayList<>();
        RecordingScheduledThread.run(START, () -> {
            SpinBound spin = new SpinBound(Duration.ofSeconds(1));
            spin.cap(now -> {
                asked.add(now);
                return START + 3 * SPIN;
            });
            spin.start();
            assertThrows(LockTimeoutException.class, () -> {
                while (true) {
                    spin.pause("hand-over of", "ALock 1:0x40");
                }
            });
            return null;
        });
        assertEquals(List.of(START, START + SPIN, START + 2 * SPIN, START + 3 * SPIN, START + 4 * SPIN), asked);
    }
}
