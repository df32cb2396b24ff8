package io.remus.core.sim;

import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SimOptions#tearReads()}: an RDMA READ racing compare-and-swaps of the word it reads returns, at
 * some point, a word never stored (the low half of one value beside the high half of another), as
 * Soft-RoCE's can; without the option every READ returns a stored value.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SimTornReadTest {
    private static final long ZEROS = 0;
    private static final long ONES = -1L;
    /** How long the reader looks for a torn word with the option on. */
    private static final long SEARCH_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final int READS_WITHOUT_TEARING = 20_000;

    @Test
    void shouldReturnAWordNeverStoredWhenAReadRacesCompareAndSwapsWithTornReads() throws InterruptedException {
        long[] seen = race(SimOptions.defaults().withTearReads(true).withYieldWhileTearing(true), Long.MAX_VALUE);
        assertTrue(seen[1] > 0, "a READ returned a torn word within " + TimeUnit.NANOSECONDS.toSeconds(SEARCH_NANOS)
                + " s (" + seen[0] + " READs)");
    }

    @Test
    void shouldReturnOnlyStoredWordsWhenReadsDoNotTear() throws InterruptedException {
        long[] seen = race(SimOptions.defaults().withYieldWhileTearing(true), READS_WITHOUT_TEARING);
        assertEquals(0, seen[1], "torn words among " + seen[0] + " READs");
    }

    /**
     * One thread flips a word on node 1 between all zeros and all ones by compare-and-swap while another
     * READs it, until a torn word, {@code reads} READs or the search time.
     *
     * @return the READs made and the torn words seen
     */
    private static long[] race(SimOptions options, long reads) throws InterruptedException {
        try (TestCluster c = new TestCluster(SimFabric::new, options, 2, b -> { })) {
            long word = c.block(1, 8);
            AtomicBoolean done = new AtomicBoolean();
            AtomicLong made = new AtomicLong();
            AtomicLong torn = new AtomicLong();
            c.runOnThreads(new int[] {0, 0}, (index, t) -> {
                if (index == 0) {
                    long expected = ZEROS;
                    while (!done.get()) {
                        long next = expected == ZEROS ? ONES : ZEROS;
                        assertEquals(expected, t.compareAndSwap(word, expected, next), "only this thread changes the word");
                        expected = next;
                    }
                    return;
                }
                long deadline = System.nanoTime() + SEARCH_NANOS;
                try {
                    while (made.get() < reads && System.nanoTime() - deadline < 0) {
                        long v = t.read(word);
                        made.incrementAndGet();
                        if (v != ZEROS && v != ONES) {
                            torn.incrementAndGet();
                            return;
                        }
                    }
                } finally {
                    done.set(true);
                }
            });
            return new long[] {made.get(), torn.get()};
        }
    }
}
