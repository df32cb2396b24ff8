package io.remus.ds.testing;

import io.remus.check.ClockOffset;
import io.remus.check.HistoryClock;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ClockRoundTrips} and {@link GatheredBytes} on a simulated cluster of three nodes, whose
 * threads all read one clock: every node's measured offset to node 0 holds zero, in two phases over
 * the same slots; bytes larger than one chunk arrive whole at node 0 from each other node.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterGatheringTest {
    private static final int NODES = 3;
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void shouldBoundEveryOffsetAroundZeroWhenAllNodesReadOneClock() throws InterruptedException {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), NODES, b -> { })) {
            long slots = c.block(0, (int) ClockRoundTrips.BYTES_PER_NODE * NODES);
            AtomicReferenceArray<ClockOffset> offsets = new AtomicReferenceArray<>(NODES);
            for (int phase = 0; phase < 2; phase++) {
                int p = phase;
                c.runOnThreads(new int[] {0, 1, 2}, (index, t) -> {
                    if (index == 0) {
                        ClockRoundTrips.serve(t, slots, NODES, p, 5, HistoryClock.EPOCH_MICROS, BOUND);
                    } else {
                        offsets.set(index, ClockRoundTrips.measure(t, slots, p, 5, HistoryClock.EPOCH_MICROS, BOUND));
                    }
                });
                for (int n = 1; n < NODES; n++) {
                    ClockOffset o = offsets.get(n);
                    assertTrue(o.low() <= 0 && 0 <= o.high(), "phase " + p + ", node " + n + ": " + o);
                }
            }
        }
    }

    @Test
    void shouldDeliverEveryNodesBytesWholeWhenTheyAreLargerThanAChunk() throws InterruptedException {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), NODES, b -> b.segmentSize(1 << 20))) {
            long slots = c.block(0, (int) GatheredBytes.SLOT_BYTES * NODES);
            byte[][] sent = new byte[NODES][];
            byte[][] received = new byte[NODES][];
            for (int n = 1; n < NODES; n++) {
                sent[n] = new byte[10_000 + n];
                new Random(n).nextBytes(sent[n]);
            }
            c.runOnThreads(new int[] {0, 1, 2}, (index, t) -> {
                if (index == 0) {
                    for (int n = 1; n < NODES; n++) {
                        received[n] = GatheredBytes.receive(t, slots + GatheredBytes.SLOT_BYTES * n, BOUND);
                    }
                } else {
                    GatheredBytes.send(t, slots + GatheredBytes.SLOT_BYTES * index, sent[index]);
                }
            });
            for (int n = 1; n < NODES; n++) {
                assertEquals(sent[n].length, received[n].length);
                assertArrayEquals(sent[n], received[n], "node " + n);
            }
        }
    }
}
