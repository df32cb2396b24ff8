package io.remus.core.config;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpRendezvousTest {
    private static final Duration LONG = Duration.ofSeconds(30);

    private static InetSocketAddress freeRoot() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return new InetSocketAddress("127.0.0.1", s.getLocalPort());
        }
    }

    @Test
    void shouldGiveEveryRankTheSameListWhenRankZeroStartsLast() throws Exception {
        InetSocketAddress root = freeRoot();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<String>>> futures = new ArrayList<>();
            for (int r = 3; r >= 0; r--) {
                int rank = r;
                futures.add(pool.submit(() -> TcpRendezvous.exchange(root, rank, 4, "10.0.0." + rank + ":" + (7000 + rank), LONG)));
                Thread.sleep(50);
            }
            List<String> expected = List.of("10.0.0.0:7000", "10.0.0.1:7001", "10.0.0.2:7002", "10.0.0.3:7003");
            for (Future<List<String>> f : futures) {
                assertEquals(expected, f.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldNameTheMissingRanksAtRankZeroAndRankZeroAtTheOthers() throws Exception {
        InetSocketAddress root = freeRoot();
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            Future<List<String>> one = pool.submit(() -> TcpRendezvous.exchange(root, 1, 4, "h:7001", Duration.ofSeconds(2)));
            RemoteTimeoutException atZero = assertThrows(RemoteTimeoutException.class,
                    () -> TcpRendezvous.exchange(root, 0, 4, "h:7000", Duration.ofMillis(700)));
            assertTrue(atZero.getMessage().contains("rank(s) [2, 3] of 4"), atZero.getMessage());
            ExecutionException e = assertThrows(ExecutionException.class, () -> one.get(30, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof RemoteTimeoutException || e.getCause() instanceof BadArgumentException,
                    String.valueOf(e.getCause()));
            assertTrue(e.getCause().getMessage().startsWith("rank 1: rank 0"), e.getCause().getMessage());
        } finally {
            pool.shutdownNow();
        }
        RemoteTimeoutException alone = assertThrows(RemoteTimeoutException.class,
                () -> TcpRendezvous.exchange(freeRoot(), 2, 3, "h:7002", Duration.ofMillis(300)));
        assertTrue(alone.getMessage().contains("rank 2: rank 0's TCP rendezvous"), alone.getMessage());
    }

    @Test
    void shouldRefuseADuplicateRankAtRankZeroAndAtTheOffender() throws Exception {
        InetSocketAddress root = freeRoot();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<List<String>> zero = pool.submit(() -> TcpRendezvous.exchange(root, 0, 3, "h:7000", LONG));
            Future<List<String>> first = pool.submit(() -> TcpRendezvous.exchange(root, 1, 3, "h:7001", LONG));
            Thread.sleep(300);
            ExecutionException atZero = assertThrows(ExecutionException.class, () -> {
                BadArgumentException offender = assertThrows(BadArgumentException.class,
                        () -> TcpRendezvous.exchange(root, 1, 3, "g:7001", LONG));
                assertTrue(offender.getMessage().contains("rank 1 registered twice"), offender.getMessage());
                zero.get(30, TimeUnit.SECONDS);
            });
            assertInstanceOf(BadArgumentException.class, atZero.getCause());
            assertTrue(atZero.getCause().getMessage().contains("rank 1 registered twice"), atZero.getCause().getMessage());
            first.cancel(true);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldRejectBadRankSizeAndAddressBeforeConnecting() throws Exception {
        InetSocketAddress root = freeRoot();
        assertThrows(BadArgumentException.class, () -> TcpRendezvous.exchange(root, 3, 3, "h:1", LONG));
        assertThrows(BadArgumentException.class, () -> TcpRendezvous.exchange(root, 0, 0, "h:1", LONG));
        assertThrows(BadArgumentException.class, () -> TcpRendezvous.exchange(root, 1, 2, "h", LONG));
        assertThrows(BadArgumentException.class, () -> TcpRendezvous.exchange(root, 1, 2, "h:1", Duration.ZERO));
    }
}
