package io.remus.check;

import io.remus.check.spec.CounterSpec;
import io.remus.core.testing.RecordingScheduledThread;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.remus.check.Ops.CHECKER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HistoryTest {
    @TempDir
    Path dir;

    private static History countOnThreads(HistoryClock clock, int process, AtomicLong counter, int threads, int ops)
            throws InterruptedException {
        History h = new History(clock, process);
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            History.Recorder r = h.recorder(t);
            ts[t] = new Thread(() -> {
                for (int i = 0; i < ops; i++) {
                    int op = r.invoke("fetchAndAdd", 1);
                    r.respond(op, counter.getAndAdd(1));
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join(30_000);
            assertTrue(!t.isAlive(), "recording thread did not finish");
        }
        return h;
    }

    @Test
    void shouldRecordALinearizableCounterFromThreads() throws InterruptedException {
        History h = countOnThreads(HistoryClock.NANO_TIME, 0, new AtomicLong(), 4, 3000);
        List<Operation> ops = h.operations();
        assertEquals(12_000, ops.size());
        for (int i = 0; i < ops.size(); i++) {
            assertEquals(i, ops.get(i).id());
        }
        CHECKER.check(ops, new CounterSpec()).assertLinearizable();
    }

    @Test
    void shouldRecordPendingOperationAndSecondWordResults() {
        History h = new History(HistoryClock.NANO_TIME);
        History.Recorder r = h.recorder(3);
        r.respond(r.invoke("read"), 1, 2);
        r.invoke("write", 7, 8);
        List<Operation> ops = h.operations();
        assertArrayEquals(new long[] {1, 2}, ops.get(0).result());
        assertTrue(ops.get(1).isPending());
        assertNull(ops.get(1).result());
        assertArrayEquals(new long[] {7, 8}, ops.get(1).arguments());
        assertThrows(HistoryFormatException.class, () -> r.respond(0));
        assertThrows(HistoryFormatException.class, () -> h.recorder(3));
    }

    @Test
    void shouldRoundTripThroughAFile() {
        History h = new History(HistoryClock.EPOCH_MICROS, 4);
        History.Recorder r = h.recorder(0);
        r.respond(r.invoke("fetchAndAdd", -3), 0);
        r.invoke("read");
        Path f = dir.resolve("p4.history");
        HistoryFiles.write(h, f);
        HistoryFiles.Recorded back = HistoryFiles.read(f);
        assertEquals(HistoryClock.EPOCH_MICROS, back.clock());
        assertEquals(4, back.process());
        assertEquals(h.operations(), back.operations());
    }

    @Test
    void shouldMergeProcessesRecordedWithTheSharedClock() throws InterruptedException {
        AtomicLong counter = new AtomicLong();
        for (int p = 0; p < 3; p++) {
            HistoryFiles.write(countOnThreads(HistoryClock.EPOCH_MICROS, p, counter, 2, 500), dir.resolve(p + ".history"));
        }
        List<Operation> merged = HistoryFiles.merge(List.of(dir.resolve("0.history"), dir.resolve("1.history"), dir.resolve("2.history")));
        assertEquals(3000, merged.size());
        CHECKER.check(merged, new CounterSpec()).assertLinearizable();
    }

    @Test
    void shouldRefuseToMergePerJvmClocks() throws Exception {
        for (int p = 0; p < 2; p++) {
            History h = new History(HistoryClock.NANO_TIME, p);
            h.recorder(0).invoke("read");
            HistoryFiles.write(h, dir.resolve(p + ".history"));
        }
        var e = assertThrows(HistoryFormatException.class,
                () -> HistoryFiles.merge(List.of(dir.resolve("0.history"), dir.resolve("1.history"))));
        assertTrue(e.getMessage().contains("NANO_TIME"), e.getMessage());
    }

    @Test
    void shouldNameTheBadLineOfAFile() throws Exception {
        Path f = dir.resolve("bad.history");
        Files.writeString(f, "# remus-check history 1\nclock EPOCH_MICROS\nprocess 0\n0 read 5 x () (1)\n");
        var e = assertThrows(HistoryFormatException.class, () -> HistoryFiles.read(f));
        assertTrue(e.getMessage().contains(":4: not a number: 'x'"), e.getMessage());
    }

    @Test
    void shouldReadMicrosecondsFromTheSharedClock() {
        long before = System.currentTimeMillis();
        long micros = HistoryClock.EPOCH_MICROS.now();
        long after = System.currentTimeMillis();
        assertTrue(micros / 1000 >= before - 1 && micros / 1000 <= after + 1, micros + " not within [" + before + ", " + after + "] ms");
    }

    @Test
    void shouldReadTheVirtualClockOfAScheduledThreadWithNanoTime() throws Exception {
        long[] read = new long[2];
        RecordingScheduledThread.run(7_000_000_000L, () -> {
            read[0] = HistoryClock.NANO_TIME.now();
            ThreadTime.charge(5);
            read[1] = HistoryClock.NANO_TIME.now();
            return null;
        });
        assertArrayEquals(new long[] {7_000_000_000L, 7_000_000_005L}, read, "the scheduled thread's clock, not the host's");
    }
}
