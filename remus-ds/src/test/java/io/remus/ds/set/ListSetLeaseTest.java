package io.remus.ds.set;

import io.remus.alock.kind.LockKind;
import io.remus.ds.testing.Counts;
import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.LeaseExpiredException;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A call whose guard's lease runs out during its walk does not trust what it read: it starts over in a fresh
 * guard and answers right; inside an outer guard of the caller whose lease ran out it throws
 * {@link LeaseExpiredException}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListSetLeaseTest {
    static Stream<Named<SetMaker>> sets() {
        return Stream.of(SetMaker.lockFree(), SetMaker.lazy(LockKind.SPIN)).map(m -> Named.of(m.name(), m));
    }

    @ParameterizedTest
    @MethodSource("sets")
    void shouldStartOverInAFreshGuardWhenTheLeaseRunsOutDuringAWalk(SetMaker maker) {
        AtomicLong clock = new AtomicLong(1_000_000);
        AtomicBoolean jump = new AtomicBoolean();
        AtomicInteger calls = new AtomicInteger();
        EpochOptions options = EpochOptions.defaults().withLease(Duration.ofMillis(100)).withClock(() -> {
            if (jump.get() && calls.incrementAndGet() == 2) {
                return clock.addAndGet(1_000);
            }
            return clock.get();
        });
        try (TestCluster c = new TestCluster(SimFabric::new, SetHistories.hostile(), 3, b -> { });
             ComputeThread t = c.thread(0); EpochReclaimer r = new EpochReclaimer(t, t.allocator(), options);
             RemoteSet s = maker.attach(t, r, maker.create(t, r, 2))) {
            for (long k = 1; k <= 3; k++) {
                assertTrue(s.insert(k));
            }
            BooleanSupplier[] work = {() -> s.contains(2), () -> s.insert(4), () -> s.remove(1)};
            // Nodes one walk visits: the head and keys 1, 2 for 2; the head and keys 1..3 (not the tail) for 4; the head and key 1 for 1.
            int[] visits = {3, 4, 2};
            for (int i = 0; i < work.length; i++) {
                BooleanSupplier call = work[i];
                int visited = visits[i];
                calls.set(0);
                Counts before = Counts.of(t);
                jump.set(true);
                assertTrue(call.getAsBoolean());
                jump.set(false);
                assertTrue(calls.get() >= 3, "the clock was read again for a fresh guard");
                assertTrue(before.since(t).reads() > visited, "call " + i + ": the first walk was not trusted: walked again");
            }
            assertTrue(s.contains(4));
            assertFalse(s.contains(1));

            Guard outer = r.enter();
            clock.addAndGet(1_000);
            assertThrows(LeaseExpiredException.class, () -> s.contains(2), "an outer guard whose lease ran out cannot be renewed inside");
            assertThrows(LeaseExpiredException.class, () -> s.insert(5));
            assertThrows(LeaseExpiredException.class, () -> s.remove(2));
            outer.close();
            assertTrue(s.contains(2));
            assertFalse(s.contains(5));
        }
    }
}
