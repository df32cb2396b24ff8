package io.remus.core.sim;

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
    private static final double TOLERANCE = 0.10;
    private static final int READ_4K = 4096;

    private static void assertNear(double published, double modelled, String what) {
        assertTrue(Math.abs(modelled - published) <= TOLERANCE * published,
                what + ": the model gives " + modelled + ", the published figure is " + published);
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
        SimCostModel m = SimCostModel.CONNECTX3;
        assertNear(2_000, readRoundTripNanos(m, 8), "8-byte READ round trip, ns (HERD/FaSST, about 2 us)");
        assertNear(2.7e6, oneWordAtomicsPerSecond(m), "FETCH_AND_ADD on one word, per s (rdma_bench, ConnectX-3)");
        assertNear(2.7e6, manyWordAtomicsPerSecond(m), "atomics across many words, per s (rdma_bench, ConnectX-3)");
        assertNear(26e6, 1e12 / m.nicRequestPicos(), "inbound READs, per s (HERD)");
        assertNear(56, readGigabitsPerSecond(m, READ_4K), "4 KiB READ bandwidth, Gb/s (FDR)");
    }

    @Test
    void shouldReproduceConnectX6FiguresWhenComputedFromItsComponents() {
        SimCostModel m = SimCostModel.CONNECTX6;
        assertNear(1_600, readRoundTripNanos(m, 8), "8-byte READ round trip, ns (2 x the brief's 0.8 us)");
        assertNear(2.7e6, oneWordAtomicsPerSecond(m), "FETCH_AND_ADD on one word, per s (assumed as ConnectX-3)");
        assertNear(215e6, manyWordAtomicsPerSecond(m), "atomics across many words, per s (message rate)");
        assertNear(215e6, 1e12 / m.nicRequestPicos(), "messages, per s (product brief)");
        assertNear(200, readGigabitsPerSecond(m, READ_4K), "4 KiB READ bandwidth, Gb/s (product brief)");
    }

    @Test
    void shouldKeepConnectX5ItsOwnFiguresWhenComputedFromItsComponents() {
        SimCostModel m = SimCostModel.CONNECTX5;
        assertNear(2_000, readRoundTripNanos(m, 8), "8-byte READ round trip, ns (its stated 2 us)");
        assertNear(0.4e6, oneWordAtomicsPerSecond(m), "FETCH_AND_ADD on one word, per s (its stated 2.5 us unit)");
        assertEquals(100, 8_000.0 / m.picosPerByte(), 100 * TOLERANCE, "link, Gb/s (product brief)");
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
