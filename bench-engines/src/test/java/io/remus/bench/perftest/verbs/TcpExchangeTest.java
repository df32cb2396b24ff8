package io.remus.bench.perftest.verbs;

import io.remus.bench.perftest.BenchTimeoutException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TcpExchangeTest {

    @Test
    void shouldTimeOutWhenNoServerListens() throws IOException {
        int port = FreePort.next();
        BenchTimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(
                BenchTimeoutException.class, () -> TcpExchange.connect("127.0.0.1", port, Duration.ofMillis(700))));
        assertTrue(e.getMessage().contains("no server at 127.0.0.1:" + port), e.getMessage());
    }

    @Test
    void shouldTimeOutWhenNoClientComes() throws IOException {
        int port = FreePort.next();
        BenchTimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(
                BenchTimeoutException.class, () -> TcpExchange.accept(port, Duration.ofMillis(500))));
        assertTrue(e.getMessage().contains("no client connected"), e.getMessage());
    }

    @Test
    void shouldSwapBlocksWhenBothSidesAgree() throws Exception {
        int port = FreePort.next();
        byte[][][] seen = new byte[1][][];
        Thread server = Thread.ofPlatform().start(() -> {
            try (TcpExchange s = TcpExchange.accept(port, Duration.ofSeconds(5))) {
                seen[0] = s.swap(42, new byte[][] {{1, 2}, {3}});
                s.barrier();
            }
        });
        try (TcpExchange c = TcpExchange.connect("127.0.0.1", port, Duration.ofSeconds(5))) {
            byte[][] theirs = c.swap(42, new byte[][] {{7, 8}, {9}});
            c.barrier();
            assertTrue(theirs[0][0] == 1 && theirs[0][1] == 2 && theirs[1][0] == 3);
        }
        server.join(5000);
        assertTrue(seen[0][0][0] == 7 && seen[0][1][0] == 9);
    }

    @Test
    void shouldRefuseThePeerWhenItsFlagsDiffer() throws Exception {
        int port = FreePort.next();
        Thread server = Thread.ofPlatform().start(() -> {
            try (TcpExchange s = TcpExchange.accept(port, Duration.ofSeconds(5))) {
                s.swap(1, new byte[][] {{1}});
            } catch (RuntimeException expected) {
                // the client's signature differs too
            }
        });
        try (TcpExchange c = TcpExchange.connect("127.0.0.1", port, Duration.ofSeconds(5))) {
            var e = assertThrows(io.remus.bench.perftest.BenchFailedException.class, () -> c.swap(2, new byte[][] {{1}}));
            assertTrue(e.getMessage().contains("other flags"), e.getMessage());
        }
        server.join(5000);
    }
}
