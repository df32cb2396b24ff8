package io.remus.memcached;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A command an engine has started and not necessarily finished: the non-blocking form of the
 * {@link MemcachedEngine} operations, which a {@link MemcachedServer} polls from its selector loop. Confined to the
 * engine's thread, like the engine.
 *
 * @param <T> the command's result
 */
public interface EngineCall<T> {
    /**
     * Makes what progress it can without waiting and says whether the command has finished: with a result, or
     * failed (its trustee did not answer by the command's deadline, or refused it). Non-blocking; the RDMA it
     * posts is the engine's to state.
     *
     * @return whether {@link #result()} answers now
     */
    boolean poll();

    /**
     * The result, once {@link #poll()} returned true.
     *
     * @return the command's result
     * @throws IllegalStateException when the command has not finished
     * @throws RuntimeException      the command's failure, e.g. a timeout naming the trustee
     */
    T result();

    /**
     * Gives up on the command, whose result nobody will read (its connection closed): the engine still lets the
     * request finish at the trustee, out of sight. Idempotent; no effect on a finished command.
     */
    default void abandon() {
    }

    /**
     * Runs {@code body} now, on the calling thread, as a finished call: the form a blocking engine gives.
     *
     * @param body the blocking command
     * @param <T>  its result
     * @return the finished call, holding the result or the exception {@code body} threw
     */
    static <T> EngineCall<T> now(Supplier<T> body) {
        Objects.requireNonNull(body, "body");
        try {
            T value = body.get();
            return new FinishedCall<>(value, null);
        } catch (RuntimeException e) {
            return new FinishedCall<>(null, e);
        }
    }

    /**
     * A call that finishes when each of {@code parts} has; its result is null, or the first part's failure.
     *
     * @param parts the calls
     * @return the joined call
     */
    static EngineCall<Void> all(List<? extends EngineCall<?>> parts) {
        List<? extends EngineCall<?>> copy = List.copyOf(parts);
        return new EngineCall<>() {
            @Override
            public boolean poll() {
                boolean done = true;
                for (EngineCall<?> p : copy) {
                    done &= p.poll();
                }
                return done;
            }

            @Override
            public Void result() {
                for (EngineCall<?> p : copy) {
                    p.result();
                }
                return null;
            }

            @Override
            public void abandon() {
                for (EngineCall<?> p : copy) {
                    p.abandon();
                }
            }
        };
    }
}

/** A finished call. */
record FinishedCall<T>(T value, RuntimeException failure) implements EngineCall<T> {
    @Override
    public boolean poll() {
        return true;
    }

    @Override
    public T result() {
        if (failure != null) {
            throw failure;
        }
        return value;
    }
}
