package io.remus.bench.perftest.verbs;

import io.remus.bench.perftest.BenchOperation;
import io.remus.bench.perftest.BenchSettings;
import io.remus.bench.perftest.BenchTest;
import io.remus.bench.perftest.BenchTimeoutException;
import io.remus.bench.perftest.PostedReceives;
import io.remus.bench.perftest.ReceiveSink;
import io.remus.bench.perftest.SendPingPong;
import io.remus.bench.perftest.WritePingPong;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The server side of a verbs benchmark, as perftest's server: it connects one client, offers its
 * buffer, and follows the client's commands size by size: READ, atomic and one-sided bandwidth
 * tests leave it passive (the client's operations need no CPU here); write-lat and send-lat run
 * the ping-pong responder; send-bw posts receives again as the client's SENDs consume them.
 * It returns when the client writes "done" or leaves. While it waits for a command it parks for
 * ever longer (doubling from 50 us up to 100 ms): during a READ, atomic or bandwidth run it wakes
 * ten times a second, not every 2 ms, so it takes almost no CPU from the client (in a 2-vCPU
 * Soft-RoCE guest every wake-up also delays the kernel's RDMA work), and a new size still starts
 * within a tenth of a second. The wait for a command ends when the client's TCP connection (or,
 * with {@code -R}, its first QP) is gone, and at the latest after the caller's command wait
 * ({@code --idle-timeout}, {@link #DEFAULT_COMMAND_WAIT} unless given): a client that hangs
 * without closing its connection cannot hold the server for good.
 */
public final class VerbsBenchServer {
    private static final long FIRST_PARK_NANOS = 50_000L;
    private static final long LONGEST_PARK_NANOS = 100_000_000L;
    private static final long LIVENESS_CHECK_NANOS = 200_000_000L;

    /**
     * The longest wait for the client's next command when the caller gives none: longer than a
     * harness's pause between runs ({@code remus.bench.runGate}'s 900 s).
     */
    public static final Duration DEFAULT_COMMAND_WAIT = Duration.ofHours(1);

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
     * @return how many runs the client made (one per size, times --repeat)
     * @throws io.remus.bench.perftest.BenchFailedException when the connection fails or the client leaves early
     */
    public static int serve(VerbsBenchOptions options, BenchSettings settings, long dataBytes, int signature,
                            PrintWriter log) {
        return serve(options, settings, dataBytes, signature, DEFAULT_COMMAND_WAIT, log);
    }

    /**
     * Serves one client, waiting at most {@code commandWait} for each of its commands (the next size,
     * or done).
     *
     * @param options     the server's options (no address)
     * @param settings    the same test and flags as the client's
     * @param dataBytes   the data buffer's length
     * @param signature   a digest of the test and flags
     * @param commandWait the longest wait for the client's next command, positive
     * @param log         where progress lines go
     * @return how many runs the client made (one per size, times --repeat)
     * @throws io.remus.bench.perftest.BenchFailedException when the connection fails or the client leaves early
     * @throws BenchTimeoutException when the client sends no command within {@code commandWait}
     */
    public static int serve(VerbsBenchOptions options, BenchSettings settings, long dataBytes, int signature,
                            Duration commandWait, PrintWriter log) {
        long commandWaitNanos = Objects.requireNonNull(commandWait, "commandWait").toNanos();
        Duration timeout = settings.timeout();
        try (VerbsSide side = VerbsSide.connect(options, dataBytes, settings.queuePairs(),
                settings.inFlightPerQueuePair(), settings.outstandingReads(), signature)) {
            log.println("remus bench server: " + side.description());
            log.flush();
            boolean pingPong = settings.test().isLatency() && settings.test().operation() == BenchOperation.WRITE;
            boolean send = settings.test().operation() == BenchOperation.SEND;
            // send-lat's receives all go to the buffer's start, send-bw's cycle as ib_send_bw's server's do
            PostedReceives receives = !send ? null : settings.test() == BenchTest.SEND_BW
                    ? PostedReceives.cycling(side, settings.maxSize()) : PostedReceives.atStart(side);
            long last = 0;
            int runs = 0;
            while (true) {
                long command = awaitCommand(side::command, side::peerLeft, last, commandWaitNanos);
                if (command == VerbsSide.DONE) {
                    return runs;
                }
                if (command < 1 || command > settings.sizes().size()) {
                    throw new io.remus.bench.perftest.BenchFailedException("the client asked for size #" + command
                            + " of " + settings.sizes().size() + ": both sides need the same -s/-a");
                }
                int size = settings.sizes().get((int) command - 1);
                if (pingPong) {
                    WritePingPong.clear(side, size);
                }
                if (send) {
                    receives.messagesOf(size);
                    if (runs == 0) {
                        receives.fill(); // before the first acknowledgement: the client's SENDs need them
                    }
                }
                side.acknowledge(command, timeout);
                long most = Long.MAX_VALUE; // the client's warm-up lasts until its JIT is quiet: answer until it is done
                long expected = command;
                if (pingPong) {
                    WritePingPong.respond(side, size, most, () -> side.command() != expected, timeout.toNanos());
                } else if (send && settings.test().isLatency()) {
                    SendPingPong.respond(side, receives, size, most, () -> side.command() != expected, timeout.toNanos());
                } else if (send) {
                    ReceiveSink.drain(side, receives, () -> side.command() != expected, timeout.toNanos());
                }
                last = command;
                runs++;
            }
        }
    }

    /**
     * Waits until the client's command word differs from {@code last}.
     *
     * @param command   reads the command word
     * @param peerLeft  whether the client is gone (asked every 200 ms)
     * @param last      the command already served
     * @param waitNanos the longest wait
     * @return the new command
     * @throws BenchTimeoutException when the client left, or sent nothing within {@code waitNanos}
     */
    static long awaitCommand(LongSupplier command, BooleanSupplier peerLeft, long last, long waitNanos) {
        long start = System.nanoTime();
        long nextCheck = start + LIVENESS_CHECK_NANOS;
        long park = FIRST_PARK_NANOS;
        while (true) {
            long c = command.getAsLong();
            if (c != last) {
                return c;
            }
            long now = System.nanoTime();
            if (now - start > waitNanos) {
                throw new BenchTimeoutException("the client sent neither its next size nor done within "
                        + waitNanos / 1_000_000 + " ms (--idle-timeout)");
            }
            if (now - nextCheck > 0) {
                if (peerLeft.getAsBoolean()) {
                    throw new BenchTimeoutException("the client left without saying it was done");
                }
                nextCheck = System.nanoTime() + LIVENESS_CHECK_NANOS;
            }
            LockSupport.parkNanos(Math.min(park, Math.max(1, waitNanos - (now - start))));
            park = Math.min(LONGEST_PARK_NANOS, park * 2);
        }
    }
}
