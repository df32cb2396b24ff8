package io.remus.core.config;

import io.remus.core.error.RemoteTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TCP rendezvous keeps to the caller's deadline whatever a connection does: at rank 0 a silent
 * or trickling connection delays no rank and cannot hold rank 0 past its deadline, and at the
 * other ranks a rank 0 that never answers, or answers a byte at a time, cannot hold them past theirs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpRendezvousDeadlineTest {
    private static final Duration SHORT = Duration.ofMillis(500);
    private static final int TRICKLED = 400;
    private static final long TRICKLE_PAUSE_MILLIS = 25;

    private static InetSocketAddress freeRoot() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return new InetSocketAddress("127.0.0.1", s.getLocalPort());
        }
    }

    /** Connects to {@code root}, retrying (for at most 20 s) while rank 0 does not listen yet. */
    private static Socket connectWhenListening(InetSocketAddress root) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            Socket s = new Socket();
            try {
                s.connect(root, 1_000);
                return s;
            } catch (ConnectException notYet) {
                s.close();
                if (System.nanoTime() - deadline > 0) {
                    throw notYet;
                }
                Thread.sleep(20);
            }
        }
    }

    /**
     * Writes {@code b} to {@code s}, one byte every {@value #TRICKLE_PAUSE_MILLIS} ms, {@value #TRICKLED}
     * times at most (about 10 s) or until {@code stop} opens or the connection breaks; never a line end.
     */
    private static Thread trickle(Socket s, byte b, AtomicInteger sent, CountDownLatch stop) {
        return Thread.ofPlatform().daemon().start(() -> {
            try {
                OutputStream out = s.getOutputStream();
                while (sent.get() < TRICKLED && !stop.await(TRICKLE_PAUSE_MILLIS, TimeUnit.MILLISECONDS)) {
                    out.write(b);
                    out.flush();
                    sent.incrementAndGet();
                }
            } catch (IOException | InterruptedException closed) {
                // the other side closed the connection: the trickle ends
            }
        });
    }

    @Test
    void shouldServeEveryRankWhenASilentAndATricklingConnectionReachRankZeroFirst() throws Exception {
        InetSocketAddress root = freeRoot();
        Duration timeout = Duration.ofSeconds(10);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        CountDownLatch stop = new CountDownLatch(1);
        try {
            Future<List<String>> zero = pool.submit(() -> TcpRendezvous.exchange(root, 0, 3, "10.0.0.0:7000", timeout));
            try (Socket silent = connectWhenListening(root); Socket trickler = connectWhenListening(root)) {
                Thread trickling = trickle(trickler, (byte) 'x', new AtomicInteger(), stop);
                Future<List<String>> one = pool.submit(() -> TcpRendezvous.exchange(root, 1, 3, "10.0.0.1:7001", timeout));
                Future<List<String>> two = pool.submit(() -> TcpRendezvous.exchange(root, 2, 3, "10.0.0.2:7002", timeout));
                List<String> expected = List.of("10.0.0.0:7000", "10.0.0.1:7001", "10.0.0.2:7002");
                assertEquals(expected, zero.get(30, TimeUnit.SECONDS));
                assertEquals(expected, one.get(30, TimeUnit.SECONDS));
                assertEquals(expected, two.get(30, TimeUnit.SECONDS));
                stop.countDown();
                trickling.join(10_000);
            }
        } finally {
            stop.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void shouldFailAtItsDeadlineNamingTheRankWhenATricklingConnectionNeverEndsItsLine() throws Exception {
        InetSocketAddress root = freeRoot();
        ExecutorService pool = Executors.newFixedThreadPool(1);
        CountDownLatch stop = new CountDownLatch(1);
        AtomicInteger sent = new AtomicInteger();
        try {
            Future<List<String>> zero = pool.submit(() -> TcpRendezvous.exchange(root, 0, 2, "h:7000", SHORT));
            try (Socket trickler = connectWhenListening(root)) {
                Thread trickling = trickle(trickler, (byte) '1', sent, stop);
                ExecutionException e = assertThrows(ExecutionException.class, () -> zero.get(30, TimeUnit.SECONDS));
                int sentWhenItFailed = sent.get();
                stop.countDown();
                trickling.join(10_000);
                RemoteTimeoutException timedOut = assertInstanceOf(RemoteTimeoutException.class, e.getCause());
                assertTrue(sentWhenItFailed < TRICKLED, "the trickle had ended: the deadline was not tested");
                assertTrue(timedOut.getMessage().contains("rank(s) [1] of 2"), timedOut.getMessage());
                assertTrue(timedOut.getMessage().contains("1 connection(s) sent no complete line"), timedOut.getMessage());
            }
        } finally {
            stop.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void shouldFailAtItsDeadlineWhenRankZeroAcceptsAndNeverAnswers() throws Exception {
        try (ServerSocket silentRankZero = new ServerSocket(0)) {
            InetSocketAddress root = new InetSocketAddress("127.0.0.1", silentRankZero.getLocalPort());
            Thread accepting = Thread.ofPlatform().daemon().start(() -> {
                try (Socket held = silentRankZero.accept()) {
                    held.getInputStream().readAllBytes();
                } catch (IOException closed) {
                    // the test is over
                }
            });
            RemoteTimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> assertThrows(RemoteTimeoutException.class, () -> TcpRendezvous.exchange(root, 1, 2, "h:7001", SHORT)));
            assertTrue(e.getMessage().startsWith("rank 1: rank 0's TCP rendezvous at"), e.getMessage());
            silentRankZero.close();
            accepting.join(10_000);
        }
    }

    @Test
    void shouldFailAtItsDeadlineWhenRankZeroTricklesItsAnswer() throws Exception {
        AtomicInteger sent = new AtomicInteger();
        CountDownLatch stop = new CountDownLatch(1);
        try (ServerSocket tricklingRankZero = new ServerSocket(0)) {
            InetSocketAddress root = new InetSocketAddress("127.0.0.1", tricklingRankZero.getLocalPort());
            Thread serving = Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = tricklingRankZero.accept()) {
                    InputStream in = s.getInputStream();
                    int b;
                    while ((b = in.read()) >= 0 && b != '\n') {
                        // the rank's line, read to its end
                    }
                    s.getOutputStream().write("h:7000".getBytes(StandardCharsets.UTF_8));
                    trickle(s, (byte) '0', sent, stop).join();
                } catch (IOException | InterruptedException closed) {
                    // the test is over
                }
            });
            try {
                RemoteTimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(30),
                        () -> assertThrows(RemoteTimeoutException.class, () -> TcpRendezvous.exchange(root, 1, 2, "h:7001", SHORT)));
                assertTrue(sent.get() < TRICKLED, "the trickle had ended: the deadline was not tested");
                assertTrue(e.getMessage().startsWith("rank 1: rank 0's TCP rendezvous at"), e.getMessage());
            } finally {
                stop.countDown();
                tricklingRankZero.close();
                serving.join(10_000);
            }
        }
    }

    @Test
    void shouldDropAConnectionThatClosesBeforeSendingAByte() throws Exception {
        InetSocketAddress root = freeRoot();
        Duration timeout = Duration.ofSeconds(20);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<List<String>> zero = pool.submit(() -> TcpRendezvous.exchange(root, 0, 2, "h:7000", timeout));
            connectWhenListening(root).close();
            Future<List<String>> one = pool.submit(() -> TcpRendezvous.exchange(root, 1, 2, "h:7001", timeout));
            assertEquals(List.of("h:7000", "h:7001"), zero.get(30, TimeUnit.SECONDS));
            assertEquals(List.of("h:7000", "h:7001"), one.get(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldStopServingWhenRankZeroIsInterrupted() throws Exception {
        InetSocketAddress root = freeRoot();
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            Future<List<String>> zero = pool.submit(() -> TcpRendezvous.exchange(root, 0, 2, "h:7000", Duration.ofHours(1)));
            connectWhenListening(root).close();
            pool.shutdownNow();
            ExecutionException e = assertThrows(ExecutionException.class, () -> zero.get(30, TimeUnit.SECONDS));
            RemoteTimeoutException interrupted = assertInstanceOf(RemoteTimeoutException.class, e.getCause());
            assertTrue(interrupted.getMessage().contains("interrupted"), interrupted.getMessage());
        } finally {
            pool.shutdownNow();
        }
    }
}
