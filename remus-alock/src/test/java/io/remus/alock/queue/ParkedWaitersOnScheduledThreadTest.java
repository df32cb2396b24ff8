package io.remus.alock.queue;

import io.remus.core.testing.RecordingScheduledThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A waiter on the virtual-time scheduler parks through it, so {@link ParkedWaiters#unpark(long)} must wake it
 * through the scheduler too ({@link io.remus.core.time.ThreadTime#unpark}): the JDK's unpark would leave it parked
 * until its deadline. {@link RecordingScheduledThread} stands in for the scheduler.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ParkedWaitersOnScheduledThreadTest {
    @Test
    void shouldWakeAScheduledWaiterThroughItsScheduler() {
        RecordingScheduledThread waiter = new RecordingScheduledThread(() -> { }, 0);
        long token = ParkedWaiters.register(waiter);
        ParkedWaiters.unpark(token);
        assertEquals(1, waiter.wakes());
        ParkedWaiters.unpark(0);
        assertEquals(1, waiter.wakes(), "token 0 names no thread");
    }
}
