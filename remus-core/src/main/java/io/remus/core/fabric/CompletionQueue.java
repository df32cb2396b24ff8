package io.remus.core.fabric;

import io.remus.core.time.ThreadTime;
import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.Objects;

/** A completion queue (verbs {@code ibv_cq}); owned by one thread at a time. */
public interface CompletionQueue extends AutoCloseable {
    /**
     * Moves up to {@code out.capacity()} completions into {@code out}, never blocking, allocating
     * nothing (verbs {@code ibv_poll_cq}).
     *
     * @param out where completions go
     * @return how many were stored, from index 0
     */
    int poll(Completions out);

    /**
     * Waits for completions: polls (as {@link #poll(Completions)}) until the queue hands out at
     * least one or {@code timeout} has passed, spinning and then yielding the processor between
     * polls. Progress: blocking, bounded by {@code timeout}. Posts no RDMA operation; on the
     * simulator each poll also executes the due requests of the queue pairs that complete here.
     *
     * @param out     where completions go
     * @param timeout the longest wait, zero (one poll) or positive
     * @return how many were stored, from index 0; 0 when none came within {@code timeout}
     * @throws NullPointerException when {@code out} or {@code timeout} is null
     * @throws BadArgumentException when {@code timeout} is negative
     */
    default int poll(Completions out, Duration timeout) {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new BadArgumentException("timeout must be zero or positive, got " + timeout);
        }
        long budget = timeout.compareTo(Duration.ofDays(365)) > 0 ? Long.MAX_VALUE / 4 : timeout.toNanos();
        long deadline = ThreadTime.nanoTime() + budget;
        int idle = 0;
        while (true) {
            int got = poll(out);
            if (got > 0) {
                return got;
            }
            if (ThreadTime.nanoTime() - deadline >= 0) {
                return 0;
            }
            if ((++idle & 0x3F) != 0) {
                ThreadTime.onSpinWait();
            } else {
                ThreadTime.yield();
            }
        }
    }

    /** {@return the completions the queue can hold} */
    int capacity();

    /**
     * Destroys the queue. Idempotent. The node destroys its queues when it closes, whoever uses them.
     *
     * @throws io.remus.core.error.ResourceInUseException while a queue pair created with it is open, or, for
     *                                              the queue of the node's {@link ReceiveQueue}, once a
     *                                              peer has connected to the node (the connection
     *                                              delivers into it until the node closes); nothing is
     *                                              closed then
     */
    @Override
    void close();
}
