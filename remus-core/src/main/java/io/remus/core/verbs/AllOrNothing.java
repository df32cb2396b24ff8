package io.remus.core.verbs;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Builds an owner of several native resources all or nothing: each resource made is {@link #add}ed;
 * when every step succeeded {@link #keep()} hands them to the caller, and otherwise
 * {@link #close()} (from try-with-resources, as the failure propagates) closes them in the reverse
 * order of making, each failure to close added to the propagating exception as suppressed.
 *
 * <pre>{@code
 * try (AllOrNothing made = new AllOrNothing()) {
 *     ProtectionDomain pd = made.add(context.allocateProtectionDomain());
 *     CompletionQueue cq = made.add(context.createCompletionQueue(4));
 *     made.keep();
 *     return new Owner(pd, cq);
 * }
 * }</pre>
 */
final class AllOrNothing implements AutoCloseable {
    private final Deque<AutoCloseable> made = new ArrayDeque<>();

    /**
     * @param resource a resource just made
     * @param <T>      its type
     * @return {@code resource}
     */
    <T extends AutoCloseable> T add(T resource) {
        made.push(resource);
        return resource;
    }

    /** Every step succeeded: the resources are the caller's, {@link #close()} leaves them open. */
    void keep() {
        made.clear();
    }

    /**
     * Closes what was added, last first, unless {@link #keep()} was called.
     *
     * @throws RuntimeException the first failure to close, the later ones suppressed in it (when
     *                          closing on the way out of a failed step, try-with-resources adds it to
     *                          that step's exception as suppressed instead)
     */
    @Override
    public void close() {
        RuntimeException failure = null;
        while (!made.isEmpty()) {
            try {
                made.pop().close();
            } catch (Exception e) {
                RuntimeException r = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                if (failure == null) {
                    failure = r;
                } else {
                    failure.addSuppressed(r);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
