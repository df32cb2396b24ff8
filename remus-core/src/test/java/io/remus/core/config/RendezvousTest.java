package io.remus.core.config;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RendezvousTest {
    private static final Duration LONG = Duration.ofSeconds(30);
    private static final Duration SHORT = Duration.ofMillis(200);

    @Test
    void shouldGiveEveryRankTheSameListWhenAllPublish(@TempDir Path dir) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<String>>> futures = new ArrayList<>();
            for (int r = 3; r >= 0; r--) {
                int rank = r;
                futures.add(pool.submit(() -> Rendezvous.exchange(dir, rank, 4, "10.0.0." + rank + ":" + (7000 + rank), LONG)));
            }
            List<String> expected = List.of("10.0.0.0:7000", "10.0.0.1:7001", "10.0.0.2:7002", "10.0.0.3:7003");
            for (Future<List<String>> f : futures) {
                assertEquals(expected, f.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        try (var files = Files.list(dir)) {
            assertEquals(4, files.count(), "no temporary file is left behind");
        }
    }

    @Test
    void shouldNameTheMissingRanksWhenTheyNeverCome(@TempDir Path dir) {
        RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class,
                () -> Rendezvous.exchange(dir, 1, 4, "h:7001", SHORT));
        assertTrue(e.getMessage().contains("rank(s) [0, 2, 3] of 4"), e.getMessage());
    }

    @Test
    void shouldRefuseASecondProcessClaimingTheSameRank(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("rank-2"), "h:7002\n");
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> Rendezvous.exchange(dir, 2, 3, "g:7002", LONG));
        assertTrue(e.getMessage().contains("rank 2 is already registered"), e.getMessage());
        assertEquals("h:7002\n", Files.readString(dir.resolve("rank-2")), "the first claim stays");
    }

    @Test
    void shouldNameAStaleRankOutsideTheSize(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("rank-7"), "h:7007\n");
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> Rendezvous.exchange(dir, 0, 3, "h:7000", LONG));
        assertTrue(e.getMessage().contains("holds rank 7, outside the job's size 3"), e.getMessage());
    }

    @Test
    void shouldNameTheRankWhoseFileHoldsABadAddress(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("rank-1"), "h:http\n");
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> Rendezvous.exchange(dir, 0, 2, "h:7000", LONG));
        assertTrue(e.getMessage().startsWith("rank 1 published a bad address"), e.getMessage());
    }

    @Test
    void shouldRejectBadRankSizeAddressAndTimeoutBeforeWriting(@TempDir Path dir) throws Exception {
        BadArgumentException outside = assertThrows(BadArgumentException.class, () -> Rendezvous.exchange(dir, 3, 3, "h:1", LONG));
        assertTrue(outside.getMessage().contains("rank 3 is outside the job's size 3"), outside.getMessage());
        assertThrows(BadArgumentException.class, () -> Rendezvous.exchange(dir, -1, 3, "h:1", LONG));
        assertThrows(BadArgumentException.class, () -> Rendezvous.exchange(dir, 0, 0, "h:1", LONG));
        BadArgumentException noPort = assertThrows(BadArgumentException.class, () -> Rendezvous.exchange(dir, 0, 1, "h", LONG));
        assertTrue(noPort.getMessage().contains("'h'"), noPort.getMessage());
        assertThrows(BadArgumentException.class, () -> Rendezvous.exchange(dir, 0, 1, "h:99999", LONG));
        assertThrows(BadArgumentException.class, () -> Rendezvous.exchange(dir, 0, 1, "h:1", Duration.ZERO));
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }
}
