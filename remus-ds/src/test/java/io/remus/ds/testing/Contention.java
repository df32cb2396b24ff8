package io.remus.ds.testing;

import java.util.concurrent.ThreadLocalRandom;

/** Randomized scheduling noise for the concurrent tests: yields about one call in three. */
public final class Contention {
    private Contention() {
    }

    /** Yields about one call in three. */
    public static void maybeYield() {
        if (ThreadLocalRandom.current().nextInt(3) == 0) {
            Thread.yield();
        }
    }

    /** Nodes of {@code threads} test threads spread over {@code nodes} nodes, round robin. */
    public static int[] spread(int threads, int nodes) {
        int[] of = new int[threads];
        for (int i = 0; i < threads; i++) {
            of[i] = i % nodes;
        }
        return of;
    }
}
