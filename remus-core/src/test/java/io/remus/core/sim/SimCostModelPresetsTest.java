package io.remus.core.sim;

import io.remus.core.testing.PublishedFigures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The named models' own arithmetic against the published figures their Javadoc cites, each within 10 %:
 * an 8-byte READ's round trip, FETCH_AND_ADD on one word ({@code 1e9 / atomicUnitNanos}), atomics across
 * many words and the NIC message rate ({@code 1e12 / picos}), and the bandwidth of a window of 4 KiB READs
 * ({@code 1e12 / picosPerByte} bytes per second). Arithmetic only: no simulation, no clock.
 */
class SimCostModelPresetsTest {
    private static final double TOLERANCE = PublishedFigures.TOLERANCE;
    private static final int READ_4K = 4096;

    private static void assertNear(double published, double modelled, String what) {
        String off = PublishedFigures.offBy(published, modelled, what);
        assertTrue(off == null, off);
    }

    private static double readRoundTripNanos(SimCostModel m, int bytes) {
        return m.readWriteRoundTripNanos() + (double) bytes * m.picosPerByte() / 1000;
    }

    private static double oneWordAtomicsPerSecond(SimCostModel m) {
        return 1e9 / m.atomicUnitNanos();
    }

    private static double manyWordAtomicsPerSecond(SimCostModel m) {
        return 1e12 / Math.max(m.nicAtomicPicos(), m.nicRequestPicos());
    }

    private static double readGigabitsPerSecond(SimCostModel m, int bytes) {
        double busyPicos = Math.max(m.nicRequestPicos(), (double) bytes * m.picosPerByte());
        return bytes * 8 / busyPicos * 1000;
    }

    @Test
    void shouldReproduceConnectX3FiguresWhenComputedFromItsComponents() {
        PublishedFigures f = PublishedFigures.CONNECTX3;
        SimCostModel m = f.model();
        assertNear(f.readNanos(), readRoundTripNanos(m, 8), "8-byte READ round trip, ns (HERD/FaSST, about 2 us)");
        assertNear(f.atomicNanos(), m.atomicRoundTripNanos(), "atomic round trip, ns (READ plus one unit, assumed)");
        assertNear(f.oneWordAtomicsPerSec(), oneWordAtomicsPerSecond(m), "FETCH_AND_ADD on one word, per s (rdma_bench)");
        assertNear(f.manyWordAtomicsPerSec(), manyWordAtomicsPerSecond(m), "atomics across many words, per s (rdma_bench)");
        assertNear(f.readsPerSec(), 1e12 / m.nicRequestPicos(), "inbound READs, per s (HERD)");
        assertNear(f.read4kGigabitsPerSec(), readGigabitsPerSecond(m, READ_4K), "4 KiB READ bandwidth, Gb/s (FDR)");
    }

    @Test
    void shouldReproduceConnectX6FiguresWhenComputedFromItsComponents() {
        PublishedFigures f = PublishedFigures.CONNECTX6;
        SimCostModel m = f.model();
        assertNear(f.readNanos(), readRoundTripNanos(m, 8), "8-byte READ round trip, ns (2 x the brief's 0.8 us)");
        assertNear(f.atomicNanos(), m.atomicRoundTripNanos(), "atomic round trip, ns (READ plus one unit, assumed)");
        assertNear(f.oneWordAtomicsPerSec(), oneWordAtomicsPerSecond(m), "FETCH_AND_ADD on one word, per s (assumed)");
        assertNear(f.manyWordAtomicsPerSec(), manyWordAtomicsPerSecond(m), "atomics across many words, per s (message rate)");
        assertNear(f.readsPerSec(), 1e12 / m.nicRequestPicos(), "messages, per s (product brief)");
        assertNear(f.read4kGigabitsPerSec(), readGigabitsPerSecond(m, READ_4K), "4 KiB READ bandwidth, Gb/s (product brief)");
    }

    @Test
    void shouldKeepConnectX5ItsOwnFiguresWhenComputedFromItsComponents() {
        PublishedFigures f = PublishedFigures.CONNECTX5;
        SimCostModel m = f.model();
        assertNear(f.readNanos(), readRoundTripNanos(m, 8), "8-byte READ round trip, ns (its stated 2 us)");
        assertNear(f.atomicNanos(), m.atomicRoundTripNanos(), "atomic round trip, ns (its stated 2.5 us)");
        assertNear(f.oneWordAtomicsPerSec(), oneWordAtomicsPerSecond(m), "FETCH_AND_ADD on one word, per s (its 2.5 us unit)");
        assertEquals(100, 8_000.0 / m.picosPerByte(), 100 * TOLERANCE, "link, Gb/s (product brief)");
        assertEquals(Double.POSITIVE_INFINITY, f.manyWordAtomicsPerSec());
        assertEquals(0, m.nicRequestPicos(), "no message rate: requests never queue for the NIC");
        assertEquals(0, m.nicAtomicPicos());
    }

    @Test
    void shouldFindEveryPresetByItsNameWhenAskedInAnyCase() {
        assertEquals(List.of("none", "connectx3", "connectx5", "connectx6"),
                SimCostModel.PRESETS.stream().map(SimCostModel::name).toList());
        for (SimCostModel m : SimCostModel.PRESETS) {
            assertSame(m, SimCostModel.byName(m.name().toUpperCase(java.util.Locale.ROOT)));
        }
        assertSame(SimCostModel.CONNECTX3, SimCostModel.byName("connectx3"));
        assertSame(SimCostModel.CONNECTX6, SimCostModel.byName(" ConnectX6 "));
    }
}
