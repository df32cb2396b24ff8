package io.remus.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule every native owner follows against a close on another thread ({@link NativeResource}):
 * a native call between {@code enter} and {@code exit} never sees its object destroyed, and a call
 * after the close throws {@link ClosedResourceException}. The fake's "native object" records a use
 * after its destroy instead of crashing the JVM.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class NativeCloseRaceTest {
    private static final int ROUNDS = 2_000;

    /** A native owner whose post reads its object for a while, as a provider's post_send does. */
    private static final class FakeQueue extends NativeResource {
        private volatile boolean destroyed;
        private final AtomicInteger usesAfterDestroy;

        FakeQueue(AtomicInteger usesAfterDestroy) {
            super("fake queue");
            this.usesAfterDestroy = usesAfterDestroy;
        }

        /** The shape of {@link SendBatch#post()}: enter, call into the object, exit. */
        void post() {
            enter();
            try {
                for (int i = 0; i < 50; i++) {
                    if (destroyed) {
                        usesAfterDestroy.incrementAndGet();
                    }
                    Thread.onSpinWait();
                }
            } finally {
                exit();
            }
        }

        @Override
        void destroy() {
            destroyed = true;
        }
    }

    @Test
    void shouldNeverDestroyUnderAPostWhenClosedOnAnotherThread() throws Exception {
        AtomicInteger usesAfterDestroy = new AtomicInteger();
        AtomicInteger refusedPosts = new AtomicInteger();
        for (int round = 0; round < ROUNDS; round++) {
            FakeQueue q = new FakeQueue(usesAfterDestroy);
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<Throwable> other = new AtomicReference<>();
            Thread poster = Thread.ofPlatform().start(() -> {
                started.countDown();
                try {
                    while (true) {
                        q.post();
                    }
                } catch (ClosedResourceException expected) {
                    refusedPosts.incrementAndGet();
                } catch (Throwable t) {
                    other.set(t);
                }
            });
            assertTrue(started.await(10, TimeUnit.SECONDS));
            int spins = ThreadLocalRandom.current().nextInt(200);
            for (int i = 0; i < spins; i++) {
                Thread.onSpinWait();
            }
            q.close();
            poster.join(10_000);
            assertTrue(!poster.isAlive(), "the poster stopped at the close in round " + round);
            assertNull(other.get(), "round " + round);
            assertEquals(0, q.callsInFlight());
            assertThrows(ClosedResourceException.class, q::post, "a post after the close is refused");
        }
        assertEquals(0, usesAfterDestroy.get(), "a post saw its object destroyed under it");
        assertEquals(ROUNDS, refusedPosts.get(), "every poster ended with the typed exception");
    }

    @Test
    void shouldLetSeveralThreadsCloseOnceWhilePostsRun() throws Exception {
        AtomicInteger usesAfterDestroy = new AtomicInteger();
        for (int round = 0; round < 200; round++) {
            FakeQueue q = new FakeQueue(usesAfterDestroy);
            Thread poster = Thread.ofPlatform().start(() -> {
                try {
                    while (true) {
                        q.post();
                    }
                } catch (ClosedResourceException expected) {
                    // the close won
                }
            });
            Thread[] closers = new Thread[3];
            for (int i = 0; i < closers.length; i++) {
                closers[i] = Thread.ofPlatform().start(q::close);
            }
            for (Thread c : closers) {
                c.join(10_000);
            }
            poster.join(10_000);
            assertTrue(q.isClosed() && !poster.isAlive(), "round " + round);
        }
        assertEquals(0, usesAfterDestroy.get());
    }
}
