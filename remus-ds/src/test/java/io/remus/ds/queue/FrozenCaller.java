package io.remus.ds.queue;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimFreeze;
import io.remus.core.testing.TestCluster;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A queue caller on node 0 for the frozen-thread tests: it attaches its handle, waits to be told, then runs its
 * one call, which the test freezes ({@link SimFabric#freeze}) before a chosen work request.
 *
 * @param <Q> the queue handle
 * @param <R> the call's result
 */
final class FrozenCaller<Q, R> {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The longest a caller stays frozen: past it the freeze lets go by itself (and the test fails). */
    static final Duration MAX_FROZEN = Duration.ofSeconds(90);

    private final CountDownLatch ready = new CountDownLatch(1);
    private final CountDownLatch go = new CountDownLatch(1);
    private final CompletableFuture<R> done = new CompletableFuture<>();
    private final AtomicReference<Q> handle = new AtomicReference<>();
    private final Thread thread;

    FrozenCaller(TestCluster c, Function<ComputeThread, Q> attach, Function<Q, R> call) {
        thread = new Thread(() -> {
            try (ComputeThread t = c.thread(0)) {
                Q q = attach.apply(t);
                handle.set(q);
                ready.countDown();
                if (!go.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                    throw new AssertionError("never told to go");
                }
                done.complete(call.apply(q));
            } catch (Throwable e) {
                ready.countDown();
                done.completeExceptionally(e);
            }
        }, "frozen@node0");
        thread.setDaemon(true);
        thread.start();
    }

    /** @return the caller's handle, once it attached */
    Q handle() {
        return handle.get();
    }

    /** Freezes the call before its work request after the first {@code skip}, and waits until it is parked. */
    SimFreeze freezeAfter(TestCluster c, int skip, Opcode expected) throws InterruptedException {
        assertTrue(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS));
        SimFreeze freeze = ((SimFabric) c.fabric()).freeze(thread, skip, MAX_FROZEN);
        go.countDown();
        assertTrue(freeze.awaitFrozen(WAIT), "the caller reached the work request it is frozen before");
        assertEquals(expected, freeze.frozenAt());
        return freeze;
    }

    /** Checks it stayed frozen, releases it, and returns its call's result. */
    R releaseAndAwait(SimFreeze freeze) throws Exception {
        assertTrue(freeze.isFrozen(), "it stayed frozen while the others ran");
        assertFalse(done.isDone());
        freeze.release();
        R result = done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertFalse(freeze.expired(), "released by the test, not by the freeze's deadline");
        return result;
    }
}
