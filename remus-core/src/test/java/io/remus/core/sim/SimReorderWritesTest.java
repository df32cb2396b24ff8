package io.remus.core.sim;

import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SimOptions#reorderWrites()}: a writer on node 1 posts a body WRITE and a flag WRITE in one doorbell
 * to node 0, whose CPU polls the flag; with the option the poller sees a new flag beside an old body, and
 * the doorbell still completes once both landed; without it the body is always there first.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SimReorderWritesTest {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final int ROUNDS_IN_ORDER = 200;

    @Test
    void shouldMakeTheLaterWriteOfADoorbellVisibleFirstWhenWritesReorder() throws InterruptedException {
        long[] seen = race(SimOptions.defaults().withReorderWrites(true), Integer.MAX_VALUE);
        assertTrue(seen[1] > 0, "the poller never saw a flag before its body in " + seen[0] + " rounds");
    }

    @Test
    void shouldMakeTheWritesOfADoorbellVisibleInOrderByDefault() throws InterruptedException {
        long[] seen = race(SimOptions.defaults(), ROUNDS_IN_ORDER);
        assertEquals(0, seen[1], "flags seen before their bodies in " + seen[0] + " rounds");
    }

    /**
     * Round {@code r} WRITEs {@code r} into the body word and then into the flag word, one doorbell; node 0's
     * CPU polls the flag and, each time it changes, loads the body, which holds at least the flag's value
     * when the body landed first. Until a flag is seen before its body,
     * {@code rounds} rounds, or 30 s.
     *
     * @return the rounds made and the flags seen before their bodies
     */
    private static long[] race(SimOptions options, int rounds) throws InterruptedException {
        try (TestCluster c = new TestCluster(SimFabric::new, options, 2, b -> { })) {
            long body = c.block(0, 16);
            long flag = body + 8;
            AtomicLong round = new AtomicLong();
            AtomicLong early = new AtomicLong();
            AtomicBoolean done = new AtomicBoolean();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            c.runOnThreads(new int[] {0, 1}, (index, t) -> {
                if (index == 0) {
                    MemorySegment words = t.localSegment(body, 16);
                    long last = 0;
                    while (!done.get() && System.nanoTime() - deadline < 0) {
                        long f = (long) WORD.getVolatile(words, 8L);
                        if (f != last) {
                            if ((long) WORD.getVolatile(words, 0L) < f) {
                                early.incrementAndGet();
                            }
                            last = f;
                        }
                    }
                    return;
                }
                try {
                    for (long r = 1; r <= rounds && early.get() == 0 && System.nanoTime() - deadline < 0; r++) {
                        t.buffer().set(ValueLayout.JAVA_LONG, 0, r);
                        t.buffer().set(ValueLayout.JAVA_LONG, 8, r);
                        t.batch().write(body, 0, 8).write(flag, 8, 8).execute();
                        round.set(r);
                    }
                } finally {
                    done.set(true);
                }
            });
            return new long[] {round.get(), early.get()};
        }
    }
}
