package io.remus.alock;

import io.remus.alock.kind.LockKind;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every lock wait takes its bound from {@link LockOptions#acquireTimeout()}, validated as {@link Timeouts} says. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockWaitBoundsTest {
    static Stream<Duration> unusableTimeouts() {
        return Stream.of(Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(-5), Timeouts.MAX_FINITE.plusNanos(1),
                Duration.ofSeconds(Long.MAX_VALUE), ChronoUnit.FOREVER.getDuration());
    }

    @ParameterizedTest
    @MethodSource("unusableTimeouts")
    void shouldRefuseAcquireTimeoutNamingItAndItsValueWhenUnusable(Duration timeout) {
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> LockOptions.defaults().withAcquireTimeout(timeout));
        assertTrue(e.getMessage().contains("acquireTimeout") && e.getMessage().contains(timeout.toString()), e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("unusableTimeouts")
    void shouldRefuseSpinBoundTimeoutNamingItsValueWhenUnusable(Duration timeout) {
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> new SpinBound(timeout));
        assertTrue(e.getMessage().contains(timeout.toString()), e.getMessage());
    }

    @Test
    void shouldThrowNullPointerNamingTheParameterWhenNull() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> LockOptions.defaults().withAcquireTimeout(null));
        assertEquals("acquireTimeout", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> new SpinBound(null));
        assertEquals("timeout", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> new LockContext(null, LockOptions.defaults()));
        assertEquals("thread", e.getMessage());
    }

    @Test
    void shouldAcceptForeverAndTheLongestFiniteTimeout() {
        assertEquals(Timeouts.FOREVER, LockOptions.defaults().withAcquireTimeout(Timeouts.FOREVER).acquireTimeout());
        assertEquals(Timeouts.MAX_FINITE, LockOptions.defaults().withAcquireTimeout(Timeouts.MAX_FINITE).acquireTimeout());
        SpinBound forever = new SpinBound(Timeouts.FOREVER);
        forever.start();
        for (int i = 0; i < 10_000; i++) {
            forever.pause("nothing");
        }
    }

    @Test
    void shouldFailTypedNamingWhatWasAwaitedAndTheBoundWhenTheDeadlinePasses() {
        Duration bound = Duration.ofMillis(20);
        SpinBound spin = new SpinBound(bound);
        spin.start();
        LockTimeoutException e = assertThrows(LockTimeoutException.class, () -> {
            while (true) {
                spin.pause("hand-over of", "lock X");
            }
        });
        assertTrue(e.getMessage().contains("hand-over of lock X") && e.getMessage().contains(bound.toString()), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(LockKind.class)
    void shouldLockAndUnlockWhenTheAcquireTimeoutIsForever(LockKind kind) throws Exception {
        LockOptions forever = LockOptions.defaults().withAcquireTimeout(Timeouts.FOREVER);
        try (TestCluster c = LockClusters.start(SimFabric::new, SimOptions.defaults(), 2, 2)) {
            long word = LockClusters.lockWord(c, 0);
            c.runOnThreads(new int[] {0, 1}, (i, t) -> {
                Lock lock = kind.open(new LockContext(t, forever), word);
                for (int r = 0; r < 20; r++) {
                    lock.lock();
                    assertTrue(lock.isHeld());
                    lock.unlock();
                }
                assertFalse(lock.isHeld());
            });
        }
    }
}
