package io.remus.ds.testing;

import io.remus.check.ClockOffset;
import io.remus.check.HistoryClock;
import io.remus.core.ComputeThread;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

/**
 * Bounds each node's clock offset to a reference node's by round trips over RDMA
 * ({@link ClockOffset#ofRoundTrip}), for merging histories recorded on different hosts. The
 * reference node keeps {@link #BYTES_PER_NODE} bytes per node in its memory: a request word,
 * an answer word and a reading word. A node writes a new request number (RDMA WRITE), polls the
 * answer word (RDMA READs) until it shows that number, and reads the reading word (one RDMA READ);
 * the reference {@link #serve serves} by polling the request words with its CPU, reading its clock,
 * storing the reading, then the answer. The reading was taken after the request was written and
 * before the answer was seen, so each round trip bounds the offset whatever its delays, and the
 * tightest of a phase's round trips is kept.
 *
 * <p>A phase is {@code rounds} round trips of every other node; phase {@code p} uses request
 * numbers {@code p * rounds + 1 .. (p + 1) * rounds}, so the slots need no reset between phases.
 * No word here is touched by an RDMA atomic, so the reference's CPU stores are safe.
 */
public final class ClockRoundTrips {
    /** Bytes of the slot of one node. */
    public static final long BYTES_PER_NODE = 24;
    private static final long REQUEST = 0;
    private static final long ANSWER = 8;
    private static final long READING = 16;

    private ClockRoundTrips() {
    }

    /**
     * Answers {@code rounds} round trips of every node but the caller's, in phase {@code phase}.
     *
     * @param t        a compute thread of the reference node (the slots' node)
     * @param slots    the first slot, on this node, zeroed before phase 0
     * @param nodes    the number of nodes (slots)
     * @param phase    the phase, from 0
     * @param rounds   round trips per node in a phase
     * @param clock    the clock whose readings are answered
     * @param deadline how long the whole phase may take
     * @throws AssertionError when some node did not finish its round trips within the deadline
     */
    public static void serve(ComputeThread t, long slots, int nodes, int phase, int rounds, HistoryClock clock, Duration deadline) {
        MemorySegment s = t.localSegment(slots, BYTES_PER_NODE * nodes);
        long last = (long) (phase + 1) * rounds;
        long end = System.nanoTime() + deadline.toNanos();
        int pending = nodes - 1;
        long[] answered = new long[nodes];
        while (pending > 0) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("clock round trips of phase " + phase + ": " + pending + " node(s) unfinished after "
                        + deadline + " (answered " + java.util.Arrays.toString(answered) + ")");
            }
            boolean any = false;
            for (int n = 0; n < nodes; n++) {
                if (n == t.nodeId()) {
                    continue;
                }
                long request = (long) ValueLayout.JAVA_LONG.varHandle().getVolatile(s, BYTES_PER_NODE * n + REQUEST);
                if (request != answered[n] && request > (long) phase * rounds) {
                    long reading = clock.now();
                    ValueLayout.JAVA_LONG.varHandle().setVolatile(s, BYTES_PER_NODE * n + READING, reading);
                    ValueLayout.JAVA_LONG.varHandle().setVolatile(s, BYTES_PER_NODE * n + ANSWER, request);
                    answered[n] = request;
                    any = true;
                    if (request == last) {
                        pending--;
                    }
                }
            }
            if (!any) {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Runs phase {@code phase}'s round trips of this node with the reference.
     *
     * @param t        a compute thread of this node (not the reference)
     * @param slots    the first slot, on the reference node
     * @param phase    the phase, from 0
     * @param rounds   round trips in the phase
     * @param clock    this node's clock, of the same kind as the reference's
     * @param deadline how long each answer may take
     * @return the tightest bound of the phase on this clock's offset to the reference's
     * @throws AssertionError when an answer did not come within the deadline
     */
    public static ClockOffset measure(ComputeThread t, long slots, int phase, int rounds, HistoryClock clock, Duration deadline) {
        long slot = slots + BYTES_PER_NODE * t.nodeId();
        ClockOffset best = null;
        for (int k = 1; k <= rounds; k++) {
            long request = (long) phase * rounds + k;
            long sentAt = clock.now();
            t.write(slot + REQUEST, request);
            long end = System.nanoTime() + deadline.toNanos();
            while (t.read(slot + ANSWER) != request) {
                if (System.nanoTime() - end > 0) {
                    throw new AssertionError("no answer to clock round trip " + request + " within " + deadline);
                }
            }
            long reading = t.read(slot + READING);
            long receivedAt = clock.now();
            ClockOffset o = ClockOffset.ofRoundTrip(sentAt, reading, receivedAt);
            best = best == null ? o : best.intersect(o);
        }
        return best;
    }
}
