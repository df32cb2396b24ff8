package io.remus.verbs;

import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A close on one thread while another posts or polls, on the test device: many rounds of a
 * poster (post_send, post_recv) or poller (poll_cq) racing {@code close()} of the queue pair, the
 * completion queue or the completions polled into, which must never crash the JVM and must leave
 * the racing thread with {@link ClosedResourceException}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PostCloseRaceTest {
    private static final int ROUNDS = 300;

    @DeviceTest
    void shouldRefuseSendPostsWithTheTypedErrorWhenTheQueuePairClosesUnderThem() throws Exception {
        try (LoopbackFixture f = new LoopbackFixture()) {
            for (int round = 0; round < ROUNDS; round++) {
                ConnectedQueuePair qp = f.builder.build().connectToSelf();
                SendBatch sends = qp.sendBatch(1);
                ReceiveBatch receives = qp.receiveBatch(1);
                race(round, () -> {
                    int outstanding = 0;
                    while (true) {
                        if (outstanding < 32) {
                            try {
                                sends.write(1, f.mr, 0, 64, f.mr.address() + 1024, f.mr.remoteKey(), true).post();
                                outstanding++;
                            } catch (PostException full) {
                                sends.clear();
                            }
                            try {
                                receives.receive(2, f.mr, 2048, 64).post();
                            } catch (PostException full) {
                                receives.clear();
                            }
                        }
                        outstanding -= f.cq.poll(f.completions);
                    }
                }, qp::close);
                assertThrows(ClosedResourceException.class,
                        () -> sends.write(1, f.mr, 0, 8, f.mr.address(), f.mr.remoteKey(), true).post());
                assertThrows(ClosedResourceException.class, () -> receives.receive(2, f.mr, 0, 8).post());
                while (f.cq.poll(f.completions) > 0) {
                    LockSupport.parkNanos(1_000);
                }
            }
        }
    }

    @DeviceTest
    void shouldRefusePollsWithTheTypedErrorWhenTheCompletionQueueClosesUnderThem() throws Exception {
        try (Context context = Context.open(DeviceTests.deviceName()); WorkCompletions completions = new WorkCompletions(8)) {
            for (int round = 0; round < ROUNDS; round++) {
                CompletionQueue cq = context.createCompletionQueue(16);
                race(round, () -> {
                    while (true) {
                        cq.poll(completions);
                    }
                }, cq::close);
                assertThrows(ClosedResourceException.class, () -> cq.poll(completions));
            }
        }
    }

    @DeviceTest
    void shouldRefusePollsWithTheTypedErrorWhenTheirCompletionsCloseUnderThem() throws Exception {
        try (Context context = Context.open(DeviceTests.deviceName()); CompletionQueue cq = context.createCompletionQueue(16)) {
            for (int round = 0; round < ROUNDS; round++) {
                WorkCompletions completions = new WorkCompletions(8);
                race(round, () -> {
                    while (true) {
                        cq.poll(completions);
                    }
                }, completions::close);
                assertTrue(completions.isClosed());
                assertThrows(ClosedResourceException.class, () -> cq.poll(completions));
            }
        }
    }

    /** Runs {@code use} on a thread until it throws, closes with {@code close} meanwhile, checks the throw. */
    private static void race(int round, Runnable use, Runnable close) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread user = Thread.ofPlatform().start(() -> {
            started.countDown();
            try {
                use.run();
            } catch (Throwable t) {
                ended.set(t);
            }
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        LockSupport.parkNanos(ThreadLocalRandom.current().nextInt(200_000));
        close.run();
        user.join(30_000);
        assertTrue(!user.isAlive(), "round " + round + ": the racing thread stopped");
        Throwable t = ended.get();
        assertTrue(t instanceof ClosedResourceException, "round " + round + ": " + t);
        assertNull(t.getCause());
        assertEquals(ClosedResourceException.class, t.getClass());
    }
}
