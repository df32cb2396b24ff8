package io.remus.core;

import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The operation counters of {@link ComputeThread}: bytes moved and round trips, as documented. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ComputeThreadCountersTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    private static long scratch(ComputeThread t, int node) {
        return RemotePtr.offset(t.segmentBase(node, 1), 4096);
    }

    /** What the counters of a thread moved by since a mark. */
    private record Delta(long roundTrips, long bytesRead, long bytesWritten, long reads, long writes, long atomics) {
    }

    private static final class Mark {
        private final ComputeThread t;
        private final long rt;
        private final long br;
        private final long bw;
        private final long r;
        private final long w;
        private final long a;

        Mark(ComputeThread t) {
            this.t = t;
            this.rt = t.roundTrips();
            this.br = t.bytesRead();
            this.bw = t.bytesWritten();
            this.r = t.postedOperations(Opcode.READ);
            this.w = t.postedOperations(Opcode.WRITE);
            this.a = atomics(t);
        }

        private static long atomics(ComputeThread t) {
            return t.postedOperations(Opcode.COMPARE_AND_SWAP) + t.postedOperations(Opcode.FETCH_AND_ADD);
        }

        Delta since() {
            return new Delta(t.roundTrips() - rt, t.bytesRead() - br, t.bytesWritten() - bw,
                    t.postedOperations(Opcode.READ) - r, t.postedOperations(Opcode.WRITE) - w, atomics(t) - a);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCountOneRoundTripAndThePayloadPerSynchronousOperation(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long w = scratch(t, 1);
            Mark m = new Mark(t);
            t.write(w, 5);
            assertEquals(new Delta(1, 0, 8, 0, 1, 0), m.since(), "a word write");
            m = new Mark(t);
            assertEquals(5, t.read(w));
            assertEquals(new Delta(1, 8, 0, 1, 0, 0), m.since(), "a word read");
            m = new Mark(t);
            t.fetchAndAdd(w, 1);
            t.compareAndSwap(w, 6, 7);
            assertEquals(new Delta(2, 0, 0, 0, 0, 2), m.since(), "two atomics: no payload bytes, two round trips");
            m = new Mark(t);
            t.write(w, 0, 100);
            t.read(w, 200, 100);
            t.read(w, MemorySegment.ofArray(new byte[37]));
            assertEquals(new Delta(3, 137, 100, 2, 1, 0), m.since(), "byte ranges");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCountNothingForTheCpuPathOnTheOwnNode(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long w = scratch(t, 0);
            t.write(w, 9);
            Mark m = new Mark(t);
            assertEquals(9, t.read(w));
            t.read(w, 0, 64);
            t.await(t.readAsync(w, 0, 64, false));
            assertEquals(9, t.await(t.readWordAsync(w, false)));
            t.writeLocal(w, 10);
            assertEquals(new Delta(0, 0, 0, 0, 0, 0), m.since());
            m = new Mark(t);
            t.write(w, 11);
            assertEquals(new Delta(1, 0, 8, 0, 1, 0), m.since(), "a write to the own node goes through the NIC");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCountAsynchronousOperationsPostedTogetherAsOneRoundTrip(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long w1 = scratch(t, 1);
            long w2 = scratch(t, 2);
            Mark m = new Mark(t);
            long a = t.readAsync(w1, 0, 16, false);
            long b = t.readAsync(w2, 16, 16, false);
            long f = t.fetchAndAddAsync(RemotePtr.offset(w1, 64), 1, false);
            t.await(b);
            t.await(a);
            t.await(f);
            assertEquals(new Delta(1, 32, 0, 2, 0, 1), m.since(), "three operations on two nodes in flight together");

            m = new Mark(t);
            long x = t.writeWordAsync(w1, 1, false);
            long y = t.writeWordAsync(w2, 2, false);
            t.await(x);
            long z = t.writeWordAsync(w1, 3, false);
            t.await(y);
            t.await(z);
            assertEquals(2, m.since().roundTrips(), "one posted while the first was awaited needs a second round trip");

            m = new Mark(t);
            long p = t.readWordAsync(w1, false);
            while (!t.poll(p)) {
                Thread.onSpinWait();
            }
            t.await(p);
            assertEquals(1, m.since().roundTrips(), "polled to completion, then awaited");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCountADoorbellBatchAsOneRoundTripAndEveryEntry(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            long w = scratch(t, 1);
            Mark m = new Mark(t);
            t.batch().write(w, 0, 24).read(RemotePtr.offset(w, 64), 64, 16).read(RemotePtr.offset(w, 128), 128, 16)
                    .fetchAndAdd(RemotePtr.offset(w, 256), 1, 256).execute();
            assertEquals(new Delta(1, 32, 24, 2, 1, 1), m.since());

            m = new Mark(t);
            long first = t.batch().read(w, 0, 8).read(RemotePtr.offset(w, 8), 8, 8).post();
            long second = t.batch().read(scratch(t, 0), 16, 8).post();
            t.await(second);
            t.await(first);
            assertEquals(new Delta(1, 24, 0, 3, 0, 0), m.since(), "batches to two nodes, posted together");
        }
    }
}
