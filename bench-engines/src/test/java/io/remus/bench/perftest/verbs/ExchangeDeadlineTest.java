package io.remus.bench.perftest.verbs;

import io.remus.bench.perftest.BenchTimeoutException;
import org.junit.jupiter.api.Test;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The connection exchange and the server's wait for commands end at the caller's bound, whatever the peer does. */
class ExchangeDeadlineTest {
    private static final int TRICKLED = 60_000;

    @Test
    void shouldFailTheExchangeAtItsWaitWhenThePeerTricklesBytes() throws Exception {
        int port = FreePort.next();
        AtomicInteger sent = new AtomicInteger();
        CountDownLatch stop = new CountDownLatch(1);
        Thread trickler = Thread.ofPlatform().daemon().start(() -> {
            try (Socket s = TcpExchange.connect("127.0.0.1", port, Duration.ofSeconds(10)).socketForTests()) {
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(0x52454d55);
                out.writeInt(42);
                out.writeInt(1);
                out.writeInt(TRICKLED);
                out.flush();
                OutputStream raw = s.getOutputStream();
                while (sent.get() < TRICKLED && !stop.await(50, TimeUnit.MILLISECONDS)) {
                    raw.write(0);
                    raw.flush();
                    sent.incrementAndGet();
                }
            } catch (IOException | InterruptedException e) {
                // the server closed the connection: the trickle ends
            }
        });
        Duration wait = Duration.ofMillis(400);
        BenchTimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (TcpExchange server = TcpExchange.accept(port, wait)) {
                return assertThrows(BenchTimeoutException.class, () -> server.swap(42, new byte[][] {new byte[TRICKLED]}));
            }
        });
        int bytesWhenItFailed = sent.get();
        stop.countDown();
        trickler.join(10_000);
        assertTrue(bytesWhenItFailed < TRICKLED, "the peer had sent all its bytes: the bound was not tested");
        assertTrue(e.getMessage().contains("within " + wait.toMillis() + " ms"), e.getMessage());
    }

    @Test
    void shouldReturnTheNewCommandWhenTheClientSendsOne() {
        AtomicLong word = new AtomicLong(3);
        assertEquals(3, VerbsBenchServer.awaitCommand(word::get, () -> false, 2, Duration.ofSeconds(5).toNanos()));
    }

    @Test
    void shouldFailNamingTheOptionWhenNoCommandComesWithinTheWait() {
        BenchTimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThrows(
                BenchTimeoutException.class,
                () -> VerbsBenchServer.awaitCommand(() -> 2, () -> false, 2, Duration.ofMillis(100).toNanos())));
        assertTrue(e.getMessage().contains("within 100 ms") && e.getMessage().contains("--idle-timeout"), e.getMessage());
    }

    @Test
    void shouldFailWhenTheClientLeavesBeforeTheWaitEnds() {
        BenchTimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThrows(
                BenchTimeoutException.class,
                () -> VerbsBenchServer.awaitCommand(() -> 2, () -> true, 2, Duration.ofHours(1).toNanos())));
        assertTrue(e.getMessage().contains("left"), e.getMessage());
    }
}
