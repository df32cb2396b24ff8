package io.remus.core.rpc;

import io.remus.core.time.ThreadTime;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The RPC endpoint's round trip, measured as {@code remus bench send-lat} measures a SEND ping-pong: node 0
 * calls an echo method on node 1 with a payload of a given size, one call at a time, and each call's latency
 * is taken from just before the call to its return. Node 1 serves on its own thread. Both
 * endpoints are opened on the caller's fabric, in this process.
 *
 * <p>Per call the fabric carries 2 WRITE_WITH_IMMEDIATEs (request and response, each the slot's 16-byte
 * header plus the payload) and consumes 2 receives: one network round trip, as a SEND ping-pong's two SENDs.
 * The difference in latency between the two is the RPC layer's software: the ring slot and its credit, the
 * header, the immediate's decoding, the method's dispatch and the payload's copies. The calls take the
 * allocation-free path: {@link RpcEndpoint#call(int, int, MemorySegment, MemorySegment, Duration)} to an
 * {@link RpcSegmentMethod}.
 */
public final class RpcPingPong {
    /** The echo method's id. */
    static final int ECHO = 1;
    /** Ring slots per peer: one call is in flight at a time. */
    private static final int RING_SLOTS = 4;
    private static final Duration CONNECT = Duration.ofMinutes(1);

    private RpcPingPong() {
    }

    /**
     * One run's calls.
     *
     * @param payloadBytes               the request's and the response's payload
     * @param nanos                      each measured call's latency, sorted
     * @param writesWithImmediatePerCall WRITE_WITH_IMMEDIATEs both endpoints posted per call, warm-up included
     */
    public record Result(int payloadBytes, long[] nanos, double writesWithImmediatePerCall) {
        /** {@return the measured calls} */
        public int calls() {
            return nanos.length;
        }

        /**
         * Looks up a latency quantile.
         *
         * @param q a quantile in [0, 1]
         * @return the latency at it, in nanoseconds (nearest rank)
         */
        public long quantileNanos(double q) {
            if (!(q >= 0 && q <= 1)) {
                throw new BadArgumentException("quantile must be in [0, 1], got " + q);
            }
            int i = (int) Math.ceil(q * nanos.length) - 1;
            return nanos[Math.max(0, Math.min(nanos.length - 1, i))];
        }

        /** {@return the mean latency in nanoseconds} */
        public double meanNanos() {
            return Arrays.stream(nanos).average().orElse(0);
        }
    }

    /**
     * Runs {@code warmup} unmeasured calls, then {@code calls} measured ones.
     *
     * @param fabric       a fabric with nodes 0 and 1 not open yet; the caller closes it
     * @param calls        measured calls, 1..10<sup>8</sup>
     * @param warmup       unmeasured calls first, 0..10<sup>8</sup>
     * @param payloadBytes 0..{@link RpcEndpoint#MAX_PAYLOAD}
     * @param timeout      each call's deadline, and the server's to stop
     * @return the latencies and counts
     * @throws BadArgumentException naming the value, for a count or size out of range
     * @throws RemusException       when a call fails (its typed error), or the server failed
     * @throws InterruptedException when interrupted while waiting for the server thread to stop
     */
    public static Result run(Fabric fabric, int calls, int warmup, int payloadBytes, Duration timeout)
            throws InterruptedException {
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(timeout, "timeout");
        if (calls < 1 || calls > 100_000_000) {
            throw new BadArgumentException("calls must be 1..100000000, got " + calls);
        }
        if (warmup < 0 || warmup > 100_000_000) {
            throw new BadArgumentException("warmup must be 0..100000000, got " + warmup);
        }
        if (payloadBytes < 0 || payloadBytes > RpcEndpoint.MAX_PAYLOAD) {
            throw new BadArgumentException("payload must be 0.." + RpcEndpoint.MAX_PAYLOAD + " bytes, got " + payloadBytes);
        }
        FabricNode callerNode = fabric.open(0);
        FabricNode serverNode = fabric.open(1);
        try (RpcEndpoint caller = RpcEndpoint.create(callerNode, 2, RING_SLOTS);
             RpcEndpoint server = RpcEndpoint.create(serverNode, 2, RING_SLOTS);
             Arena arena = Arena.ofConfined()) {
            caller.connect(server.rings(), CONNECT);
            server.connect(caller.rings(), CONNECT);
            server.register(ECHO, (int from, MemorySegment request, int length, MemorySegment response) -> {
                MemorySegment.copy(request, 0, response, 0, length);
                return length;
            });
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread serving = ThreadTime.newThread("rpc-ping-pong-server", () -> {
                try {
                    while (!stop.get()) {
                        server.serve(Duration.ofMillis(10));
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            serving.setDaemon(true);
            serving.start();
            MemorySegment payload = arena.allocate(payloadBytes);
            MemorySegment echoed = arena.allocate(RpcEndpoint.MAX_PAYLOAD);
            long[] nanos = new long[calls];
            try {
                for (int i = 0; i < warmup + calls; i++) {
                    if (payloadBytes > 0) {
                        payload.set(ValueLayout.JAVA_BYTE, 0, (byte) i);
                    }
                    long start = ThreadTime.nanoTime();
                    int n = caller.call(1, ECHO, payload, echoed, timeout);
                    long took = ThreadTime.nanoTime() - start;
                    if (n != payloadBytes || payloadBytes > 0 && echoed.get(ValueLayout.JAVA_BYTE, 0) != (byte) i) {
                        throw new RpcMethodFailedException(1, ECHO, "echoed " + n + " bytes that are not call "
                                + i + "'s payload");
                    }
                    if (i >= warmup) {
                        nanos[i - warmup] = took;
                    }
                }
            } finally {
                stop.set(true);
                ThreadTime.join(serving, timeout.toNanos() + 1_000_000_000L);
            }
            if (failure.get() != null) {
                throw new RemusException("the RPC server on node 1 failed: " + failure.get(), failure.get());
            }
            if (serving.isAlive()) {
                throw new RemusException("the RPC server on node 1 did not stop within " + timeout);
            }
            double perCall = (double) (caller.writesWithImmediate() + server.writesWithImmediate()) / (warmup + calls);
            Arrays.sort(nanos);
            return new Result(payloadBytes, nanos, perCall);
        }
    }
}
