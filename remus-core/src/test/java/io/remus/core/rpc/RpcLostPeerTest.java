package io.remus.core.rpc;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.FabricNode;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RpcEndpoint}'s lost peers, in virtual time under seeds: a peer that stops answering, or is cut off and
 * healed, is failed at once for the retry interval, then probed, and called again once it answers; probes to a
 * peer that stays away take no credit; the slots its unanswered calls held come back once a later call is
 * answered, so the caller ends with every credit.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RpcLostPeerTest {
    private static final long TRANSPORT_TIMEOUT = 1_000_000L;
    private static final SimOptions MODEL = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withTransportTimeoutNanos(TRANSPORT_TIMEOUT);
    private static final Duration CONNECT = Duration.ofSeconds(1);
    private static final Duration RETRY = Duration.ofMillis(2);
    private static final Duration ATTEMPT = Duration.ofMillis(5);
    private static final int PLUS_ONE = 2;
    private static final int SLOTS = 2;

    /** Waits {@code nanos} of (virtual) time: a park may return early. */
    private static void sleep(long nanos) {
        long end = ThreadTime.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - ThreadTime.nanoTime()) {
            ThreadTime.parkNanos(null, left);
        }
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 3);
    }

    /** Seeds 1 to 3, each once with the callee silenced ({@code variant} even) and once isolated (odd). */
    static LongStream cases() {
        return LongStream.of(0, 1, 2, 3, 4, 5);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void shouldCallALostPeerAgainOnceItAnswers(long variant) {
        long seed = variant / 2 + 1;
        boolean partition = variant % 2 == 1;
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (SimFabric fabric = new SimFabric(MODEL)) {
                FabricNode a = fabric.open(0);
                FabricNode b = fabric.open(1);
                RpcEndpoint caller = RpcEndpoint.create(a, 2, SLOTS);
                RpcEndpoint callee = RpcEndpoint.create(b, 2, SLOTS);
                caller.connect(callee.rings(), CONNECT);
                callee.connect(caller.rings(), CONNECT);
                callee.registerLong(PLUS_ONE, x -> x + 1);
                caller.retryLostPeersAfter(RETRY);
                AtomicBoolean stop = new AtomicBoolean();
                AtomicReference<Throwable> failed = new AtomicReference<>();
                Thread server = ThreadTime.newThread("callee", () -> {
                    try {
                        while (!stop.get()) {
                            callee.serve(Duration.ofMillis(1));
                        }
                    } catch (Throwable e) {
                        failed.set(e);
                    }
                });
                server.start();
                boolean ended = false;
                try {
                    assertEquals(2, caller.callLong(1, PLUS_ONE, 1, ATTEMPT));

                    if (partition) {
                        fabric.isolate(1);
                    } else {
                        fabric.stopAnswering(1);
                    }
                    PeerUnreachableException lost = assertThrows(PeerUnreachableException.class,
                            () -> caller.callLong(1, PLUS_ONE, 2, ATTEMPT));
                    assertEquals(1, lost.nodeId());
                    assertTrue(caller.isLost(1));
                    assertEquals(SLOTS - 1, caller.freeCredits(1), "the lost call's slot stays held");
                    long probesBefore = caller.probes();
                    assertThrows(PeerUnreachableException.class, () -> caller.callLong(1, PLUS_ONE, 3, ATTEMPT),
                            "within the retry interval a call fails at once");
                    assertEquals(probesBefore, caller.probes(), "no probe within the interval");

                    int probedWhileAway = 0;
                    for (int i = 0; i < 5; i++) {
                        sleep(RETRY.toNanos());
                        assertThrows(PeerUnreachableException.class, () -> caller.callLong(1, PLUS_ONE, 4, ATTEMPT));
                        probedWhileAway++;
                    }
                    assertEquals(probesBefore + probedWhileAway, caller.probes(), "one probe per interval");
                    assertEquals(SLOTS - 1, caller.freeCredits(1), "probes take no credit");

                    if (partition) {
                        fabric.heal();
                    } else {
                        fabric.resumeAnswering(1);
                    }
                    sleep(RETRY.toNanos());
                    long revivals = caller.revivals();
                    assertEquals(11, caller.callLong(1, PLUS_ONE, 10, ATTEMPT), "called again once it answers");
                    assertFalse(caller.isLost(1));
                    assertEquals(revivals + 1, caller.revivals());
                    assertEquals(SLOTS, caller.freeCredits(1), "the lost call's slot came back with the next answer");
                    for (long x = 20; x < 40; x++) {
                        assertEquals(x + 1, caller.callLong(1, PLUS_ONE, x, ATTEMPT));
                    }
                    assertEquals(SLOTS, caller.freeCredits(1));
                    assertEquals(0, caller.unmatchedResponses());
                } finally {
                    stop.set(true);
                    ended = ThreadTime.join(server, 1_000_000_000L);
                }
                assertTrue(ended, "the server thread ended");
                if (failed.get() != null) {
                    throw new AssertionError("the callee failed", failed.get());
                }
                caller.close();
                callee.close();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
    }

    /**
     * The caller stops answering: its request reaches the callee, whose response fails, so the callee loses the
     * caller and the call times out holding its slot. Once the caller answers again, its next request revives it
     * at the callee, which probes it, sends the response that did not arrive (freeing the timed-out call's slot)
     * and answers.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void shouldAnswerACallerThatThisEndpointLostOnceItCallsAgain(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (SimFabric fabric = new SimFabric(MODEL)) {
                FabricNode a = fabric.open(0);
                FabricNode b = fabric.open(1);
                RpcEndpoint caller = RpcEndpoint.create(a, 2, SLOTS);
                RpcEndpoint callee = RpcEndpoint.create(b, 2, SLOTS);
                caller.connect(callee.rings(), CONNECT);
                callee.connect(caller.rings(), CONNECT);
                callee.registerLong(PLUS_ONE, x -> x + 1);
                callee.retryLostPeersAfter(Duration.ZERO);
                assertEquals(Duration.ZERO, callee.retryInterval());
                AtomicBoolean stop = new AtomicBoolean();
                Thread server = ThreadTime.newThread("callee", () -> {
                    while (!stop.get()) {
                        callee.serve(Duration.ofMillis(1));
                    }
                });
                server.start();
                boolean ended = false;
                try {
                    assertEquals(2, caller.callLong(1, PLUS_ONE, 1, ATTEMPT));
                    fabric.stopAnswering(0);
                    assertThrows(RemoteTimeoutException.class, () -> caller.callLong(1, PLUS_ONE, 2, ATTEMPT));
                    assertTrue(callee.isLost(0), "the callee's response failed");
                    assertFalse(caller.isLost(1), "the caller's request arrived");
                    assertEquals(SLOTS - 1, caller.freeCredits(1), "the timed-out call holds its slot");
                    fabric.resumeAnswering(0);
                    assertEquals(4, caller.callLong(1, PLUS_ONE, 3, ATTEMPT), "answered once it calls again");
                    sleep(RETRY.toNanos());
                    assertFalse(callee.isLost(0), "the callee's probe completed");
                    assertEquals(1, callee.revivals());
                    assertEquals(SLOTS, caller.freeCredits(1), "the response that did not arrive came with the probe");
                    assertEquals(0, caller.unmatchedResponses());
                } finally {
                    stop.set(true);
                    ended = ThreadTime.join(server, 1_000_000_000L);
                }
                assertTrue(ended, "the server thread ended");
                caller.close();
                callee.close();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void shouldNeverProbeWhenTheIntervalIsForever() {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(1), () -> {
            try (SimFabric fabric = new SimFabric(MODEL)) {
                RpcEndpoint caller = RpcEndpoint.create(fabric.open(0), 2, SLOTS);
                RpcEndpoint callee = RpcEndpoint.create(fabric.open(1), 2, SLOTS);
                caller.connect(callee.rings(), CONNECT);
                callee.connect(caller.rings(), CONNECT);
                caller.retryLostPeersAfter(io.remus.core.config.Timeouts.FOREVER);
                fabric.stopAnswering(1);
                assertThrows(PeerUnreachableException.class, () -> caller.callLong(1, PLUS_ONE, 2, ATTEMPT));
                fabric.resumeAnswering(1);
                sleep(100 * RETRY.toNanos());
                assertThrows(PeerUnreachableException.class, () -> caller.callLong(1, PLUS_ONE, 2, ATTEMPT));
                assertEquals(0, caller.probes());
                assertThrows(BadArgumentException.class, () -> caller.retryLostPeersAfter(Duration.ofNanos(-1)));
                caller.close();
                callee.close();
            }
        });
    }

    /** A deadline shorter than the probe's failure: the call fails typed at its deadline, not later. */
    @Test
    void shouldFailAtTheDeadlineWhileAProbeIsInFlight() {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(2), () -> {
            try (SimFabric fabric = new SimFabric(MODEL)) {
                RpcEndpoint caller = RpcEndpoint.create(fabric.open(0), 2, SLOTS);
                RpcEndpoint callee = RpcEndpoint.create(fabric.open(1), 2, SLOTS);
                caller.connect(callee.rings(), CONNECT);
                callee.connect(caller.rings(), CONNECT);
                caller.retryLostPeersAfter(Duration.ZERO);
                fabric.stopAnswering(1);
                assertThrows(RemoteTimeoutException.class,
                        () -> caller.callLong(1, PLUS_ONE, 2, Duration.ofNanos(TRANSPORT_TIMEOUT / 4)));
                assertThrows(PeerUnreachableException.class, () -> caller.callLong(1, PLUS_ONE, 2, ATTEMPT));
                long start = ThreadTime.nanoTime();
                assertThrows(PeerUnreachableException.class,
                        () -> caller.callLong(1, PLUS_ONE, 2, Duration.ofNanos(TRANSPORT_TIMEOUT / 4)));
                assertTrue(ThreadTime.nanoTime() - start <= TRANSPORT_TIMEOUT / 4 + 100_000,
                        "failed by its deadline (virtual time)");
                caller.close();
                callee.close();
            }
        });
    }
}
