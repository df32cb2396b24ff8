package io.remus.bench.perftest;

import io.remus.core.time.ThreadTime;
import io.remus.bench.stats.LatencyRecorder;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

/**
 * WRITE latency as perftest's {@code ib_write_lat} measures it: a ping-pong of RDMA WRITEs. Each
 * side writes {@code size} bytes from the upper half of its buffer into the lower half of the
 * peer's, the last byte carrying a sequence number; the responder answers when it sees it, and the
 * client records half of each round trip. Neither side polls a completion inside the timed span.
 * Warm-up samples are recorded too, into a recorder that is thrown away, so the JIT has compiled
 * the recording path before the first measured sample. Each side's iteration is one method called
 * once per iteration, so the JIT compiles all of the timed span (see {@link TimedLoop}).
 */
public final class WritePingPong {
    private WritePingPong() {
    }

    /**
     * The sequence byte of iteration {@code i}: never 0 (the cleared buffer) and never the byte of
     * iteration {@code i - 1}.
     */
    static byte sequence(long i) {
        return (byte) (i % 255 + 1);
    }

    /**
     * Clears the lower (receive) half and the sequence byte of the upper (send) half, before a new
     * size runs.
     *
     * @param c    one side
     * @param size the message size about to run
     */
    public static void clear(BenchConnection c, int size) {
        long half = c.bufferBytes() / 2;
        c.buffer().asSlice(0, half).fill((byte) 0);
        CompletionWait.putByte(c.buffer(), half + size - 1, (byte) 0);
    }

    /**
     * The client: pings and records half round trips.
     *
     * @param c        the client side
     * @param s        the settings
     * @param size     the message size, at least 1
     * @param recorder where half round trips go
     * @param progress the progress line
     * @return the iterations run (warm-up included), which the responder must answer
     */
    public static long client(BenchConnection c, BenchSettings s, int size, LatencyRecorder recorder,
                              ProgressLine progress) {
        return new Pinger(c, s, size, recorder, progress).measure();
    }

    /**
     * The responder: answers each ping with a pong until {@code stop} or {@code iterations}, then takes
     * its last WRITE's completion.
     *
     * @param c          the server side
     * @param size       the message size
     * @param iterations the most pings to answer
     * @param stop       becomes true when the client has finished
     * @param timeout    the longest wait for one ping, in nanoseconds
     */
    public static void respond(BenchConnection c, int size, long iterations, BooleanSupplier stop, long timeout) {
        MemorySegment buffer = c.buffer();
        long[] ids = new long[c.completionCapacity()];
        long[] completed = new long[1];
        long i = 0;
        while (i < iterations && answer(c, buffer, size, ids, completed, i, stop, timeout)) {
            i++;
        }
        if (i > 0) {
            CompletionWait.takeOne(c, ids, completed, ThreadTime.nanoTime(), timeout, "RDMA WRITE");
        }
    }

    /**
     * Answers ping {@code i}: one method per ping, so the JIT compiles all of the reply path (the
     * loop around it, in a method called once per size, stays interpreted for long).
     *
     * @return false when {@code stop} became true before the ping came
     */
    private static boolean answer(BenchConnection c, MemorySegment buffer, int size, long[] ids, long[] completed,
                                  long i, BooleanSupplier stop, long timeout) {
        long half = c.bufferBytes() / 2;
        long last = size - 1;
        byte seq = sequence(i);
        long seen = CompletionWait.forByte(c, buffer, ids, completed, last, seq, ThreadTime.nanoTime(), timeout, stop,
                "a ping");
        if (seen < 0) {
            return false;
        }
        if (i > 0) {
            CompletionWait.takeOne(c, ids, completed, seen, timeout, "RDMA WRITE");
        }
        CompletionWait.putByte(buffer, half + last, seq);
        c.write(0, half, 0, size, i, true);
        return true;
    }

    /** One ping of the client and its pong per iteration. */
    private static final class Pinger extends TimedLoop {
        private final MemorySegment buffer;
        private final long half;
        private final long last;
        private final int size;
        private final long[] completed = new long[1];

        Pinger(BenchConnection c, BenchSettings s, int size, LatencyRecorder recorder, ProgressLine progress) {
            super(c, s, size, recorder, progress);
            this.buffer = c.buffer();
            this.half = c.bufferBytes() / 2;
            this.last = size - 1;
            this.size = size;
        }

        @Override
        long iteration(long i) {
            byte seq = sequence(i);
            CompletionWait.putByte(buffer, half + last, seq);
            long t0 = ThreadTime.nanoTime();
            c.write(0, half, 0, size, i, true);
            long now = CompletionWait.forByte(c, buffer, ids, completed, last, seq, t0, timeout, () -> false,
                    "the peer's WRITE reply");
            record(i, t0, now, (now - t0) / 2);
            CompletionWait.takeOne(c, ids, completed, now, timeout, "RDMA WRITE");
            return now;
        }
    }
}
