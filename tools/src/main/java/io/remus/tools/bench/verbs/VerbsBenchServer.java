package io.remus.tools.bench.verbs;

import io.remus.tools.bench.BenchOperation;
import io.remus.tools.bench.BenchSettings;
import io.remus.tools.bench.BenchTimeoutException;
import io.remus.tools.bench.WritePingPong;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The server side of a verbs benchmark, as perftest's server: it connects one client, offers its
 * buffer, and follows the client's commands size by size: READ, atomic and bandwidth tests leave
 * it passive (the client's operations need no CPU here); write-lat runs the ping-pong responder.
 * It returns when the client writes "done" or leaves.
 */
public final class VerbsBenchServer {
    private static final long IDLE_PARK_NANOS = 2_000_000L;
    private static final long LIVENESS_CHECK_NANOS = 200_000_000L;

    private VerbsBenchServer() {
    }

    /**
     * Serves one client.
     *
     * @param options    the server's options (no address)
     * @param settings   the same test and flags as the client's
     * @param dataBytes  the data buffer's length
     * @param signature  a digest of the test and flags
     * @param log        where progress lines go
     * @return how many sizes the client ran
     * @throws io.remus.tools.bench.BenchFailedException when the connection fails or the client leaves early
     */
    public static int serve(VerbsBenchOptions options, BenchSettings settings, long dataBytes, int signature,
                            PrintWriter log) {
        Duration timeout = settings.timeout();
        try (VerbsSide side = VerbsSide.connect(options, dataBytes, settings.queuePairs(),
                settings.inFlightPerQueuePair(), settings.outstandingReads(), signature)) {
            log.println("remus bench server: " + side.description());
            log.flush();
            boolean pingPong = settings.test().isLatency() && settings.test().operation() == BenchOperation.WRITE;
            long last = 0;
            int sizes = 0;
            while (true) {
                long command = awaitCommand(side, last);
                if (command == VerbsSide.DONE) {
                    return sizes;
                }
                if (command < 1 || command > settings.sizes().size()) {
                    throw new io.remus.tools.bench.BenchFailedException("the client asked for size #" + command
                            + " of " + settings.sizes().size() + ": both sides need the same -s/-a");
                }
                int size = settings.sizes().get((int) command - 1);
                if (pingPong) {
                    WritePingPong.clear(side, size);
                }
                side.acknowledge(command, timeout);
                if (pingPong) {
                    long most = settings.durationMode() ? Long.MAX_VALUE
                            : settings.warmupIterations() + settings.iterations();
                    long expected = command;
                    WritePingPong.respond(side, size, most, () -> side.command() != expected, timeout.toNanos());
                }
                last = command;
                sizes++;
            }
        }
    }

    private static long awaitCommand(VerbsSide side, long last) {
        long nextCheck = System.nanoTime() + LIVENESS_CHECK_NANOS;
        while (true) {
            long command = side.command();
            if (command != last) {
                return command;
            }
            if (System.nanoTime() - nextCheck > 0) {
                if (side.peerLeft()) {
                    throw new BenchTimeoutException("the client left without saying it was done");
                }
                nextCheck = System.nanoTime() + LIVENESS_CHECK_NANOS;
            }
            LockSupport.parkNanos(IDLE_PARK_NANOS);
        }
    }
}
