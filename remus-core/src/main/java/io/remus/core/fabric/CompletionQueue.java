package io.remus.core.fabric;

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

    /** @return the completions the queue can hold */
    int capacity();

    /** Destroys the queue. Idempotent. */
    @Override
    void close();
}
