package io.remus.bench.perftest;

import io.remus.core.time.ThreadTime;
import io.remus.bench.stats.LatencyRecorder;

import java.util.function.BooleanSupplier;

/**
 * SEND latency as perftest's {@code ib_send_lat} measures it: a ping-pong of two-sided SENDs on
 * QP 0. The client SENDs {@code size} bytes from the upper half of its buffer; the responder, on
 * the receive's completion, posts that receive again and SENDs the same size back; the client
 * records half of the time from its post to the completion of the pong's receive. Both sides
 * hold receives posted ({@link PostedReceives}) before the first ping. Each side takes its
 * previous SEND's own completion before its next post (the client after recording the sample).
 * Warm-up samples are recorded too, into a recorder that is thrown away, so the JIT has compiled
 * the recording path before the first measured sample. Each side's iteration is one method called
 * once per iteration, so the JIT compiles all of the timed span (see {@link TimedLoop}).
 */
public final class SendPingPong {
    private SendPingPong() {
    }

    /**
     * The client: pings and records half round trips.
     *
     * @param c        the client side
     * @param receives its receives, posted
     * @param s        the settings
     * @param size     the message size, at least 1
     * @param recorder where half round trips go
     * @param progress the progress line
     * @return the iterations run (warm-up included)
     */
    public static long client(BenchConnection c, PostedReceives receives, BenchSettings s, int size,
                              LatencyRecorder recorder, ProgressLine progress) {
        return new Pinger(c, receives, s, size, recorder, progress).measure();
    }

    /**
     * The responder: answers each ping with a pong until {@code stop} or {@code iterations}, then
     * waits for its last SEND's completion.
     *
     * @param c          the server side
     * @param receives   its receives, posted
     * @param size       the message size
     * @param iterations the most pings to answer
     * @param stop       becomes true when the client has finished
     * @param timeout    the longest wait for one ping, in nanoseconds
     * @return the pings answered
     */
    public static long respond(BenchConnection c, PostedReceives receives, int size, long iterations,
                               BooleanSupplier stop, long timeout) {
        long[] ids = new long[c.completionCapacity()];
        long[] counts = new long[2];
        long i = 0;
        while (i < iterations && answer(c, receives, size, ids, counts, i, stop, timeout)) {
            i++;
        }
        awaitSends(c, receives, ids, counts, i, ThreadTime.nanoTime(), timeout);
        return i;
    }

    /**
     * Answers ping {@code i}: one method per ping, so the JIT compiles all of the reply path.
     *
     * @return false when {@code stop} became true before the ping came
     */
    private static boolean answer(BenchConnection c, PostedReceives receives, int size, long[] ids, long[] counts,
                                  long i, BooleanSupplier stop, long timeout) {
        long seen = awaitReceive(c, receives, ids, counts, i + 1, ThreadTime.nanoTime(), timeout, stop, "a ping");
        if (seen < 0) {
            return false;
        }
        awaitSends(c, receives, ids, counts, i, seen, timeout);
        c.send(0, c.bufferBytes() / 2, size, i, true);
        return true;
    }

    /** One ping of the client and its pong per iteration. */
    private static final class Pinger extends TimedLoop {
        private final PostedReceives receives;
        private final long half;
        private final int size;
        private final long[] counts = new long[2];

        Pinger(BenchConnection c, PostedReceives receives, BenchSettings s, int size, LatencyRecorder recorder,
               ProgressLine progress) {
            super(c, s, size, recorder, progress);
            this.receives = receives;
            this.half = c.bufferBytes() / 2;
            this.size = size;
        }

        @Override
        long iteration(long i) {
            long t0 = ThreadTime.nanoTime();
            c.send(0, half, size, i, true);
            long now = awaitReceive(c, receives, ids, counts, i + 1, t0, timeout, () -> false, "the peer's SEND reply");
            record(i, t0, now, (now - t0) / 2);
            awaitSends(c, receives, ids, counts, i + 1, now, timeout);
            return now;
        }
    }

    /**
     * Polls until {@code counts[0]} (receives seen, each posted again at once) reaches
     * {@code receives}, counting SEND completions in {@code counts[1]}.
     *
     * @return the time it was reached, or -1 when {@code stop} became true first
     */
    private static long awaitReceive(BenchConnection c, PostedReceives posted, long[] ids, long[] counts,
                                     long receives, long since, long timeoutNanos, BooleanSupplier stop, String what) {
        int empty = 0;
        while (counts[0] < receives) {
            if (take(c, posted, ids, counts) == 0
                    && CompletionWait.idle(++empty, since, timeoutNanos, stop, "", what, " did not arrive")) {
                return -1;
            }
        }
        return ThreadTime.nanoTime();
    }

    private static void awaitSends(BenchConnection c, PostedReceives posted, long[] ids, long[] counts, long sends,
                                   long since, long timeoutNanos) {
        int empty = 0;
        while (counts[1] < sends) {
            if (take(c, posted, ids, counts) == 0) {
                CompletionWait.idle(++empty, since, timeoutNanos, () -> false, "no completion of SEND", "", "");
            }
        }
    }

    private static int take(BenchConnection c, PostedReceives posted, long[] ids, long[] counts) {
        int n = c.poll(ids);
        for (int k = 0; k < n; k++) {
            long id = ids[k];
            if (PostedReceives.isReceive(id)) {
                posted.repost(id);
                counts[0]++;
            } else {
                counts[1]++;
            }
        }
        return n;
    }
}
