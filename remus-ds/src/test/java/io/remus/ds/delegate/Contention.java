package io.remus.ds.delegate;

import java.util.concurrent.ThreadLocalRandom;

/** Randomized scheduling noise for the concurrent tests: yields about one call in three. */
final class Contention {
    private Contention() {
    }

    static void maybeYield() {
        if (ThreadLocalRandom.current().nextInt(3) == 0) {
            Thread.yield();
        }
    }

    /** Nodes of {@code threads} test threads spread over {@code nodes} nodes, round robin. */
    static int[] spread(int threads, int nodes) {
        int[] of = new int[threads];
        for (int i = 0; i < threads; i++) {
            of[i] = i % nodes;
        }
        return of;
    }
}
