package io.remus.bench.perftest;

import io.remus.core.time.ThreadTime;
import java.util.function.BooleanSupplier;

/**
 * The passive side of SEND bandwidth ({@code ib_send_bw}'s server): it polls receive completions
 * and posts each receive again, so that every QP keeps {@link BenchConnection#receiveDepth()}
 * receives posted while the client streams SENDs. When {@code stop} becomes true (the client wrote
 * its next command, which it does only after all its SENDs completed) it drains the completion
 * queue once more: a responder writes a receive's completion before it acknowledges the SEND
 * (rxe's responder completes, then acknowledges), so none is left behind.
 */
public final class ReceiveSink {
    private ReceiveSink() {
    }

    /**
     * Receives until {@code stop}.
     *
     * @param c            the server side
     * @param receives     its receives, posted
     * @param stop         becomes true when the client has finished this size
     * @param idleTimeout  the longest time without a receive (nanoseconds) before the run fails
     * @return the receives completed
     * @throws BenchTimeoutException when nothing arrives for {@code idleTimeout} and {@code stop} stays false
     */
    public static long drain(BenchConnection c, PostedReceives receives, BooleanSupplier stop, long idleTimeout) {
        long[] ids = new long[c.completionCapacity()];
        long received = 0;
        long last = ThreadTime.nanoTime();
        int empty = 0;
        while (true) {
            int n = take(c, receives, ids);
            if (n > 0) {
                received += n;
                empty = 0;
                last = ThreadTime.nanoTime();
            } else if (CompletionWait.idle(++empty, last, idleTimeout, stop, "no SEND arrived", "", "")) {
                int more;
                while ((more = take(c, receives, ids)) > 0) {
                    received += more;
                }
                return received;
            }
        }
    }

    private static int take(BenchConnection c, PostedReceives posted, long[] ids) {
        int n = c.poll(ids);
        int receives = 0;
        for (int k = 0; k < n; k++) {
            if (PostedReceives.isReceive(ids[k])) {
                posted.repost(ids[k]);
                receives++;
            }
        }
        return receives;
    }
}
