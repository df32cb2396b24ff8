package io.remus.tools.bench;

import io.remus.tools.stats.LatencyRecorder;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

/**
 * WRITE latency as perftest's {@code ib_write_lat} measures it: a ping-pong of RDMA WRITEs. Each
 * side writes {@code size} bytes from the upper half of its buffer into the lower half of the
 * peer's, the last byte carrying a sequence number; the responder answers when it sees it, and the
 * client records half of each round trip. Neither side polls a completion inside the timed span.
 * Warm-up samples are recorded too, into a recorder that is thrown away, so the JIT has compiled
 * the recording path before the first measured sample.
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
        MemorySegment buffer = c.buffer();
        long half = c.bufferBytes() / 2;
        long last = size - 1;
        long[] ids = new long[c.completionCapacity()];
        long[] completed = new long[1];
        long timeout = s.timeout().toNanos();
        RunClock clock = RunClock.start(s, System.nanoTime());
        progress.begin(s.test().commandName() + " " + size + " B", clock.startNanos());
        LatencyRecorder warmup = new LatencyRecorder(null, 1);
        long now = clock.startNanos();
        long i = 0;
        for (; clock.continues(i, now); i++) {
            byte seq = sequence(i);
            CompletionWait.putByte(buffer, half + last, seq);
            long t0 = System.nanoTime();
            c.write(0, half, 0, size, i, true);
            now = CompletionWait.forByte(c, ids, completed, last, seq, t0, timeout, () -> false,
                    "the peer's WRITE reply");
            (clock.measures(i, t0, now) ? recorder : warmup).record((now - t0) / 2, now);
            CompletionWait.takeOne(c, ids, completed, now, timeout, "RDMA WRITE");
            progress.tick(now, i + 1);
        }
        recorder.finish();
        progress.end();
        return i;
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
        long half = c.bufferBytes() / 2;
        long last = size - 1;
        long[] ids = new long[c.completionCapacity()];
        long[] completed = new long[1];
        long i = 0;
        for (; i < iterations; i++) {
            byte seq = sequence(i);
            long seen = CompletionWait.forByte(c, ids, completed, last, seq, System.nanoTime(), timeout, stop, "a ping");
            if (seen < 0) {
                break;
            }
            if (i > 0) {
                CompletionWait.takeOne(c, ids, completed, seen, timeout, "RDMA WRITE");
            }
            CompletionWait.putByte(buffer, half + last, seq);
            c.write(0, half, 0, size, i, true);
        }
        if (i > 0) {
            CompletionWait.takeOne(c, ids, completed, System.nanoTime(), timeout, "RDMA WRITE");
        }
    }
}
