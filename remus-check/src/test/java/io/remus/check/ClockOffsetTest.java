package io.remus.check;

import io.remus.check.spec.CounterSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.remus.check.Ops.CHECKER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ClockOffset}: Cristian's interval from a round trip, intersecting and spanning bounds, and
 * merging histories of two processes whose clocks are far apart. Process 1's clock runs
 * {@value #SKEW} ticks behind process 0's: its history merged as read makes a false violation;
 * merged with a measured bound it checks as linearizable; a history that truly is not
 * linearizable stays caught through the widening.
 */
class ClockOffsetTest {
    private static final long SKEW = 1_000_000;
    private static final long T = 10_000_000;

    @Test
    void shouldBoundTheOffsetByTheRoundTripWhenTheReferenceAnsweredInBetween() {
        ClockOffset o = ClockOffset.ofRoundTrip(100, 5_050, 120);
        assertEquals(new ClockOffset(5_050 - 120 - 1, 5_050 - 100 + 1), o);
        assertEquals(22, o.width());
        assertThrows(IllegalArgumentException.class, () -> ClockOffset.ofRoundTrip(120, 5_050, 100));
        assertThrows(IllegalArgumentException.class, () -> new ClockOffset(3, 2));
    }

    @Test
    void shouldKeepTheOverlapOfRoundTripsAndSpanMeasurementsOfDifferentTimes() {
        ClockOffset a = new ClockOffset(10, 30);
        ClockOffset b = new ClockOffset(20, 40);
        assertEquals(new ClockOffset(20, 30), a.intersect(b));
        assertEquals(new ClockOffset(10, 40), a.span(b));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> a.intersect(new ClockOffset(31, 35)));
        assertTrue(e.getMessage().contains("[31, 35]"), e.getMessage());
    }

    @Test
    void shouldWidenAnOperationToItsEarliestInvocationAndLatestResponse() {
        Operation op = new Operation(0, 1, 0, "read", new long[0], new long[] {4}, 1_000, 1_010);
        Operation mapped = new ClockOffset(-505, -495).apply(op);
        assertEquals(495, mapped.invokedAt());
        assertEquals(515, mapped.respondedAt());
        Operation pending = new Operation(0, 1, 0, "read", new long[0], null, 1_000, Operation.PENDING);
        assertTrue(new ClockOffset(-5, 5).apply(pending).isPending());
        assertSame(op, ClockOffset.ZERO.apply(op));
    }

    @Test
    void shouldMergeFarApartClocksAsLinearizableOnlyWithTheirOffset(@TempDir Path dir) {
        // True times: p0 adds 1 in [0, 10] (returns 0) and reads 1 in [20, 30]; then p1 adds 1 in [40, 50]
        // (returns 1) and reads 2 in [60, 70]. p1's clock reads SKEW behind.
        List<Operation> p0 = List.of(op(0, CounterSpec.FETCH_AND_ADD, 1, 0, T, T + 10), op(0, CounterSpec.READ, -1, 1, T + 20, T + 30));
        List<Operation> p1 = List.of(op(1, CounterSpec.FETCH_AND_ADD, 1, 1, T + 40 - SKEW, T + 50 - SKEW),
                op(1, CounterSpec.READ, -1, 2, T + 60 - SKEW, T + 70 - SKEW));
        Path f0 = dir.resolve("p0");
        Path f1 = dir.resolve("p1");
        HistoryFiles.write(p0, HistoryClock.EPOCH_MICROS, 0, ClockOffset.ZERO, f0);
        HistoryFiles.write(p1, HistoryClock.EPOCH_MICROS, 1, f1);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(HistoryFiles.merge(List.of(f0, f1)), new CounterSpec()).verdict(),
                "read as one clock, p1's add that returned 1 completed before p0's add that returned 0 began");
        ClockOffset measured = ClockOffset.ofRoundTrip(T + 25 - SKEW, T + 27, T + 29 - SKEW);
        assertTrue(measured.low() <= SKEW && SKEW <= measured.high(), measured.toString());
        HistoryFiles.write(p1, HistoryClock.EPOCH_MICROS, 1, measured, f1);
        assertEquals(measured, HistoryFiles.read(f1).offset());
        assertEquals(ClockOffset.ZERO, HistoryFiles.read(f0).offset());
        List<Operation> merged = HistoryFiles.merge(List.of(f0, f1));
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(merged, new CounterSpec()).verdict(), merged.toString());
    }

    @Test
    void shouldStillCatchAViolationWhenTheOperationsAreFurtherApartThanTheBound(@TempDir Path dir) {
        // p0 adds 1 in true [0, 10]; p1 reads 0 in true [60, 70], after the add completed, whatever the offset within the bound.
        List<Operation> p0 = List.of(op(0, CounterSpec.FETCH_AND_ADD, 1, 0, T, T + 10));
        List<Operation> p1 = List.of(op(1, CounterSpec.READ, -1, 0, T + 60 - SKEW, T + 70 - SKEW));
        Path f0 = dir.resolve("p0");
        Path f1 = dir.resolve("p1");
        HistoryFiles.write(p0, HistoryClock.EPOCH_MICROS, 0, ClockOffset.ZERO, f0);
        HistoryFiles.write(p1, HistoryClock.EPOCH_MICROS, 1, ClockOffset.ofRoundTrip(T + 12 - SKEW, T + 15, T + 18 - SKEW), f1);
        CheckResult r = CHECKER.check(HistoryFiles.merge(List.of(f0, f1)), new CounterSpec());
        assertEquals(Verdict.NOT_LINEARIZABLE, r.verdict(), r.toString());
    }

    @Test
    void shouldMergeNanoTimeHistoriesOnlyWithOffsetsAndRefuseMixedClocks(@TempDir Path dir) throws Exception {
        Path f0 = dir.resolve("p0");
        Path f1 = dir.resolve("p1");
        HistoryFiles.write(List.of(op(0, CounterSpec.FETCH_AND_ADD, 1, 0, 0, 10)), HistoryClock.NANO_TIME, 0, f0);
        HistoryFiles.write(List.of(op(1, CounterSpec.READ, -1, 1, 500, 510)), HistoryClock.NANO_TIME, 1, new ClockOffset(-480, -470), f1);
        assertThrows(HistoryFormatException.class, () -> HistoryFiles.merge(List.of(f0, f1)));
        HistoryFiles.write(List.of(op(0, CounterSpec.FETCH_AND_ADD, 1, 0, 0, 10)), HistoryClock.NANO_TIME, 0, ClockOffset.ZERO, f0);
        List<Operation> merged = HistoryFiles.merge(List.of(f0, f1));
        assertEquals(20, merged.get(1).invokedAt());
        HistoryFiles.write(List.of(op(1, CounterSpec.READ, -1, 1, 500, 510)), HistoryClock.EPOCH_MICROS, 1, ClockOffset.ZERO, f1);
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> HistoryFiles.merge(List.of(f0, f1)));
        assertTrue(e.getMessage().contains("EPOCH_MICROS"), e.getMessage());
        Files.writeString(f1, "# remus-check history 1\nclock NANO_TIME\nprocess 1\noffset 5 4\n");
        assertThrows(HistoryFormatException.class, () -> HistoryFiles.read(f1));
    }

    private static Operation op(int process, String kind, long argument, long result, long invoked, long responded) {
        List<Long> args = new ArrayList<>();
        if (argument >= 0) {
            args.add(argument);
        }
        return new Operation(-1, process, 0, kind, args.stream().mapToLong(Long::longValue).toArray(),
                new long[] {result}, invoked, responded);
    }
}
