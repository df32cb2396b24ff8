package io.remus.core.rpc;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.ThreadConfinementException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RpcEndpoint}: responses, order, credits under a flood (with a broken twin without credits that
 * the same check catches), typed errors and bad input. Run on every fabric of {@link Fabrics#all()}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RpcEndpointTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration CONNECT = Duration.ofMinutes(1);
    private static final int ECHO = 1;
    private static final int PLUS_ONE = 2;

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /** Options that make the simulator hostile: torn words with yields, delayed completions. */
    static SimOptions hostile() {
        return SimOptions.defaults().withTearWords(true).withYieldWhileTearing(true).withCompletionDelayNanos(20_000L);
    }

    /** Endpoints on nodes {@code 0..n-1}, all created before any connects, then all connected pairwise. */
    private static RpcEndpoint[] endpoints(Fabric fabric, int n, int slots, boolean credits) {
        FabricNode[] nodes = new FabricNode[n];
        RpcEndpoint[] eps = new RpcEndpoint[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = fabric.open(i);
            eps[i] = RpcEndpoint.create(nodes[i], n, slots, credits);
        }
        for (RpcEndpoint from : eps) {
            for (RpcEndpoint to : eps) {
                if (from != to) {
                    from.connect(to.rings(), CONNECT);
                }
            }
        }
        return eps;
    }

    /** A thread that serves an endpoint until closed; the endpoint belongs to it meanwhile. */
    private static final class Server implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread thread;

        Server(RpcEndpoint endpoint) {
            thread = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        endpoint.serve(Duration.ofMillis(5));
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "rpc-server-" + endpoint.nodeId());
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() {
            stop.set(true);
            try {
                thread.join(WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            assertFalse(thread.isAlive(), "server thread did not stop");
            if (failure.get() != null) {
                throw new AssertionError("server failed", failure.get());
            }
        }
    }

    private static byte[] request(long callNo) {
        return ByteBuffer.allocate(24).putLong(callNo).putLong(~callNo).putLong(callNo * 31).array();
    }

    /** The response the echo-and-transform method gives for {@code request}. */
    private static byte[] expected(byte[] request) {
        byte[] r = request.clone();
        for (int i = 0; i < r.length; i++) {
            r[i] = (byte) (r[i] ^ 0x5A);
        }
        return r;
    }

    private static void registerTransform(RpcEndpoint ep, Consumer<byte[]> onServe) {
        ep.register(ECHO, (caller, payload) -> {
            onServe.accept(payload);
            return expected(payload);
        });
    }

    /**
     * The flood check: every call completes, and each response is the one its own request asks for.
     *
     * @return the problems found, empty when the history is right
     */
    static List<String> check(List<PendingCall> calls, List<byte[]> requests, Duration wait) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            try {
                byte[] got = calls.get(i).await(wait);
                if (!java.util.Arrays.equals(expected(requests.get(i)), got)) {
                    problems.add("call " + i + " got a response to another request");
                }
            } catch (RemoteTimeoutException e) {
                problems.add("call " + i + " got no response: " + e.getMessage());
            }
        }
        return problems;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReturnEachResponseWhenNodesPlayPingPong(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            RpcEndpoint[] ep = endpoints(fabric, 2, 4, true);
            ep[1].registerLong(PLUS_ONE, x -> x + 1);
            ep[1].register(ECHO, (caller, p) -> (caller + ":" + new String(p, StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8));
            try (Server s = new Server(ep[1])) {
                for (long round = 0; round < 20; round++) {
                    long before = ep[0].writesWithImmediate();
                    assertEquals(round * 10 + 1, ep[0].callLong(1, PLUS_ONE, round * 10, WAIT));
                    assertEquals(1, ep[0].writesWithImmediate() - before, "one WRITE_WITH_IMMEDIATE out per call");
                }
                assertArrayEquals("0:ping".getBytes(StandardCharsets.UTF_8),
                        ep[0].call(1, ECHO, "ping".getBytes(StandardCharsets.UTF_8), WAIT));
                assertArrayEquals("0:".getBytes(StandardCharsets.UTF_8), ep[0].call(1, ECHO, new byte[0], WAIT));
            }
            assertEquals(22, ep[1].requestsServed());
            assertEquals(22, ep[1].writesWithImmediate(), "one WRITE_WITH_IMMEDIATE back per call");
            assertEquals(22, ep[0].writesWithImmediate());
            assertEquals(0, ep[0].unmatchedResponses());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldAnswerBothWaysWhenTwoEndpointsCallEachOtherWithoutServers(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(hostile())) {
            RpcEndpoint[] ep = endpoints(fabric, 2, 2, true);
            ep[0].registerLong(PLUS_ONE, x -> x + 1000);
            ep[1].registerLong(PLUS_ONE, x -> x + 2000);
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            AtomicInteger finished = new AtomicInteger();
            Thread[] threads = new Thread[2];
            for (int me = 0; me < 2; me++) {
                RpcEndpoint self = ep[me];
                int peer = 1 - me;
                threads[me] = new Thread(() -> {
                    try {
                        for (long i = 0; i < 50; i++) {
                            assertEquals(i + 1000L * (peer + 1), self.callLong(peer, PLUS_ONE, i, WAIT));
                        }
                        finished.incrementAndGet();
                        long until = System.nanoTime() + WAIT.toNanos();
                        while (finished.get() < 2 && System.nanoTime() < until) {
                            self.serve(Duration.ofMillis(5));
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                });
                threads[me].start();
            }
            for (Thread t : threads) {
                try {
                    t.join(WAIT.toMillis() * 2);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                assertFalse(t.isAlive(), "caller did not finish");
            }
            assertEquals(List.of(), failures);
            assertEquals(50, ep[0].requestsServed());
            assertEquals(50, ep[1].requestsServed());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldServeCallsInOrderWhenOneCallerMakesMany(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            RpcEndpoint[] ep = endpoints(fabric, 2, 4, true);
            List<Long> seen = new CopyOnWriteArrayList<>();
            ep[1].registerLong(PLUS_ONE, x -> {
                seen.add(x);
                return x + 1;
            });
            List<Long> expectedOrder = new ArrayList<>();
            try (Server s = new Server(ep[1])) {
                for (long i = 0; i < 100; i++) {
                    assertEquals(i + 1, ep[0].callLong(1, PLUS_ONE, i, WAIT));
                    expectedOrder.add(i);
                }
                List<PendingCall> async = new ArrayList<>();
                for (long i = 100; i < 140; i++) {
                    async.add(ep[0].callAsync(1, PLUS_ONE, ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                            .putLong(i).array(), WAIT));
                    expectedOrder.add(i);
                }
                for (int k = 0; k < async.size(); k++) {
                    assertEquals(101 + k, ByteBuffer.wrap(async.get(k).await(WAIT))
                            .order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong());
                }
            }
            assertEquals(expectedOrder, seen);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLoseNoMessageWhenMoreCallsAreInFlightThanRingSlots(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(hostile())) {
            int slots = 4;
            int callers = 3;
            RpcEndpoint[] ep = endpoints(fabric, callers + 1, slots, true);
            RpcEndpoint callee = ep[callers];
            registerTransform(callee, p -> Thread.yield());
            List<Thread> threads = new ArrayList<>();
            List<List<String>> problems = new CopyOnWriteArrayList<>();
            try (Server s = new Server(callee)) {
                for (int c = 0; c < callers; c++) {
                    RpcEndpoint caller = ep[c];
                    Thread t = new Thread(() -> {
                        List<PendingCall> calls = new ArrayList<>();
                        List<byte[]> requests = new ArrayList<>();
                        for (int i = 0; i < 16 * slots; i++) {
                            byte[] r = request(caller.nodeId() * 1_000_000L + i);
                            requests.add(r);
                            calls.add(caller.callAsync(callee.nodeId(), ECHO, r, WAIT));
                        }
                        problems.add(check(calls, requests, WAIT));
                    });
                    threads.add(t);
                    t.start();
                }
                for (Thread t : threads) {
                    t.join(WAIT.toMillis() * 2);
                    assertFalse(t.isAlive(), "caller did not finish");
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertEquals(callers, problems.size(), "a caller thread failed");
            problems.forEach(p -> assertEquals(List.of(), p));
            assertEquals(callers * 16L * slots, callee.requestsServed());
            for (int c = 0; c < callers; c++) {
                assertEquals(0, ep[c].unmatchedResponses());
                assertEquals(16L * slots, ep[c].writesWithImmediate());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCatchOverrunWhenBrokenTwinSendsWithoutCredits(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            int slots = 4;
            RpcEndpoint[] ep = endpoints(fabric, 2, slots, false);
            registerTransform(ep[1], p -> { });
            List<PendingCall> calls = new ArrayList<>();
            List<byte[]> requests = new ArrayList<>();
            for (int i = 0; i < 3 * slots; i++) {
                requests.add(request(i));
                calls.add(ep[0].callAsync(1, ECHO, requests.get(i), WAIT));
            }
            ep[0].awaitSendsCompleted(WAIT);
            List<String> problems;
            try (Server s = new Server(ep[1])) {
                problems = check(calls, requests, Duration.ofMillis(300));
            }
            assertFalse(problems.isEmpty(), "the check must catch overwritten ring slots");
            assertTrue(ep[0].unmatchedResponses() > 0);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFailTypedWhenMethodIsUnknownOrFails(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            RpcEndpoint[] ep = endpoints(fabric, 2, 2, true);
            ep[1].registerLong(PLUS_ONE, x -> x + 1);
            ep[1].register(3, (caller, p) -> {
                throw new IllegalStateException("refused " + p.length);
            });
            ep[1].register(4, (caller, p) -> new byte[RpcEndpoint.MAX_PAYLOAD + 1]);
            try (Server s = new Server(ep[1])) {
                RpcUnknownMethodException unknown = assertThrows(RpcUnknownMethodException.class,
                        () -> ep[0].call(1, 99, new byte[3], WAIT));
                assertEquals(99, unknown.methodId());
                assertEquals(1, unknown.peer());
                assertTrue(unknown.getMessage().contains("99"));
                RpcMethodFailedException failed = assertThrows(RpcMethodFailedException.class,
                        () -> ep[0].call(1, 3, new byte[5], WAIT));
                assertTrue(failed.getMessage().contains("refused 5"), failed.getMessage());
                assertTrue(assertThrows(RpcMethodFailedException.class, () -> ep[0].call(1, 4, new byte[0], WAIT))
                        .getMessage().contains(String.valueOf(RpcEndpoint.MAX_PAYLOAD + 1)));
                assertEquals(8, ep[0].callLong(1, PLUS_ONE, 7, WAIT), "the endpoint still works");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFailTypedBeforeDeadlineWhenPeerIsClosedOrSilent(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults().withTransportTimeoutNanos(20_000_000L))) {
            FabricNode[] nodes = {fabric.open(0), fabric.open(1), fabric.open(2)};
            RpcEndpoint[] ep = new RpcEndpoint[3];
            for (int i = 0; i < 3; i++) {
                ep[i] = RpcEndpoint.create(nodes[i], 3, 2);
            }
            ep[0].connect(ep[1].rings(), CONNECT);
            ep[0].connect(ep[2].rings(), CONNECT);
            ep[1].connect(ep[0].rings(), CONNECT);
            ep[2].connect(ep[0].rings(), CONNECT);
            ep[1].registerLong(PLUS_ONE, x -> x + 1);

            RemoteTimeoutException silent = assertThrows(RemoteTimeoutException.class,
                    () -> ep[0].callLong(2, PLUS_ONE, 1, Duration.ofMillis(100)));
            assertTrue(silent.getMessage().contains("node 2"), silent.getMessage());

            nodes[1].close();
            PeerUnreachableException gone = assertThrows(PeerUnreachableException.class,
                    () -> ep[0].callLong(1, PLUS_ONE, 1, WAIT));
            assertTrue(gone.getMessage().contains("node 1"), gone.getMessage());
            assertThrows(PeerUnreachableException.class, () -> ep[0].callLong(1, PLUS_ONE, 1, WAIT),
                    "later calls fail at once");
        }
    }

    /** XORs each request byte with 0x5A into the response, as {@link #expected} does, without allocating. */
    private static int transform(int caller, MemorySegment request, int length, MemorySegment response) {
        for (int i = 0; i < length; i++) {
            response.set(ValueLayout.JAVA_BYTE, i, (byte) (request.get(ValueLayout.JAVA_BYTE, i) ^ 0x5A));
        }
        return length;
    }

    /**
     * Calls from and into the caller's segments reach segment methods and byte-array methods alike, byte
     * calls reach segment methods, and every bad segment is refused by name while the endpoint keeps
     * working.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCallFromAndIntoSegmentsWhenMethodsOfBothKindsServe(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults()); Arena arena = Arena.ofConfined()) {
            RpcEndpoint[] ep = endpoints(fabric, 2, 4, true);
            ep[1].register(ECHO, RpcEndpointTest::transform);
            ep[1].register(3, (caller, payload) -> expected(payload));
            ep[1].register(5, (caller, request, length, response) -> RpcEndpoint.MAX_PAYLOAD + 1);
            try (Server server = new Server(ep[1])) {
                MemorySegment request = arena.allocate(24);
                MemorySegment.copy(MemorySegment.ofArray(request(7)), 0, request, 0, 24);
                MemorySegment response = arena.allocate(RpcEndpoint.MAX_PAYLOAD);
                for (int method : new int[] {ECHO, 3}) {
                    response.fill((byte) 0);
                    assertEquals(24, ep[0].call(1, method, request, response, WAIT), "method " + method);
                    assertArrayEquals(expected(request(7)), response.asSlice(0, 24).toArray(ValueLayout.JAVA_BYTE), "method " + method);
                }
                assertArrayEquals(expected(request(8)), ep[0].call(1, ECHO, request(8), WAIT), "a byte call to a segment method");

                assertTrue(assertThrows(BadArgumentException.class, () -> ep[0].call(1, ECHO, request, arena.allocate(8), WAIT))
                        .getMessage().contains("24 bytes"));
                assertTrue(assertThrows(BadArgumentException.class, () -> ep[0].call(1, ECHO, request, response.asReadOnly(), WAIT))
                        .getMessage().contains("read-only"));
                assertTrue(assertThrows(BadArgumentException.class,
                        () -> ep[0].call(1, ECHO, arena.allocate(RpcEndpoint.MAX_PAYLOAD + 1), response, WAIT))
                        .getMessage().contains(String.valueOf(RpcEndpoint.MAX_PAYLOAD + 1)));
                MemorySegment closed;
                try (Arena gone = Arena.ofConfined()) {
                    closed = gone.allocate(8);
                }
                assertTrue(assertThrows(BadArgumentException.class, () -> ep[0].call(1, ECHO, closed, response, WAIT))
                        .getMessage().contains("closed"));
                assertTrue(assertThrows(RpcMethodFailedException.class, () -> ep[0].call(1, 5, request, response, WAIT))
                        .getMessage().contains(String.valueOf(RpcEndpoint.MAX_PAYLOAD + 1)));
                assertThrows(RpcUnknownMethodException.class, () -> ep[0].call(1, 77, request, response, WAIT));

                assertEquals(24, ep[0].call(1, ECHO, request, response, WAIT), "the endpoint works after the refusals");
                assertArrayEquals(expected(request(7)), response.asSlice(0, 24).toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldServeItselfWhenCallingOwnNode(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            RpcEndpoint ep = RpcEndpoint.create(fabric.open(0), 1, 2);
            ep.connect(ep.rings(), CONNECT);
            ep.registerLong(PLUS_ONE, x -> x * 2);
            for (long i = 0; i < 5; i++) {
                assertEquals(2 * i, ep.callLong(0, PLUS_ONE, i, WAIT));
            }
            assertEquals(10, ep.writesWithImmediate());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseBadInputWhenArgumentsAreInvalid(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            FabricNode a = fabric.open(0);
            assertTrue(assertThrows(BadArgumentException.class, () -> RpcEndpoint.create(a, 0, 4))
                    .getMessage().contains("0"));
            assertTrue(assertThrows(BadArgumentException.class, () -> RpcEndpoint.create(a, 2, -3))
                    .getMessage().contains("-3"));
            FabricNode c = fabric.open(5);
            assertTrue(assertThrows(BadArgumentException.class, () -> RpcEndpoint.create(c, 2, 4))
                    .getMessage().contains("5"));
            RpcEndpoint ep = RpcEndpoint.create(a, 3, 2);
            RpcEndpoint other = RpcEndpoint.create(fabric.open(1), 3, 2);
            ep.connect(other.rings(), CONNECT);
            assertTrue(assertThrows(BadArgumentException.class, () -> ep.connect(other.rings(), CONNECT))
                    .getMessage().contains("already"));
            RemoteRegion small = new RemoteRegion(2, other.rings().address(), 64, other.rings().rkey());
            assertTrue(assertThrows(BadArgumentException.class, () -> ep.connect(small, CONNECT))
                    .getMessage().contains("64"));
            assertTrue(assertThrows(BadArgumentException.class, () -> ep.register(-7, (x, p) -> p))
                    .getMessage().contains("-7"));
            ep.register(1, (x, p) -> p);
            assertTrue(assertThrows(BadArgumentException.class, () -> ep.register(1, (x, p) -> p))
                    .getMessage().contains("1"));
            assertTrue(assertThrows(BadArgumentException.class, () -> ep.call(-1, 1, new byte[0], WAIT))
                    .getMessage().contains("-1"));
            assertTrue(assertThrows(BadArgumentException.class, () -> ep.call(9, 1, new byte[0], WAIT))
                    .getMessage().contains("9"));
            assertTrue(assertThrows(BadArgumentException.class, () -> ep.call(2, 1, new byte[0], WAIT))
                    .getMessage().contains("not connected"));
            assertTrue(assertThrows(BadArgumentException.class,
                    () -> ep.call(1, 1, new byte[RpcEndpoint.MAX_PAYLOAD + 1], WAIT))
                    .getMessage().contains(String.valueOf(RpcEndpoint.MAX_PAYLOAD + 1)));
            assertThrows(BadArgumentException.class, () -> ep.call(1, 1, new byte[0], Duration.ZERO));
            assertTrue(assertThrows(BadArgumentException.class, () -> ep.serve(Duration.ofMillis(-2)))
                    .getMessage().contains("-"));
            assertEquals("payload", assertThrows(NullPointerException.class, () -> ep.call(1, 1, null, WAIT))
                    .getMessage());
            assertEquals(0, ep.writesWithImmediate(), "refused calls post nothing");

            ep.serve(Duration.ZERO);
            AtomicReference<Throwable> fromOther = new AtomicReference<>();
            Thread intruder = new Thread(() -> {
                try {
                    ep.serve(Duration.ZERO);
                } catch (Throwable t) {
                    fromOther.set(t);
                }
            });
            intruder.start();
            try {
                intruder.join(WAIT.toMillis());
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertTrue(fromOther.get() instanceof ThreadConfinementException, String.valueOf(fromOther.get()));
            ep.close();
            assertTrue(assertThrows(BadArgumentException.class, () -> ep.call(1, 1, new byte[0], WAIT))
                    .getMessage().contains("closed"));
        }
    }
}
