package io.remus.core.testing;

import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;

import java.time.Duration;

/** Bounded waits for completions, for tests that drive a fabric's queue pairs directly. */
public final class CompletionPolls {
    private CompletionPolls() {
    }

    /**
     * Polls {@code cq} until it hands out completions.
     *
     * @param cq     the completion queue
     * @param out    where they go
     * @param within the longest wait
     * @return how many it handed out, at least one
     * @throws AssertionError if none came within {@code within}
     */
    public static int pollSome(CompletionQueue cq, Completions out, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        int got;
        while ((got = cq.poll(out)) == 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no completion within " + within);
            }
            Thread.onSpinWait();
        }
        return got;
    }
}
