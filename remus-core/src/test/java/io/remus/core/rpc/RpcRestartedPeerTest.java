package io.remus.core.rpc;

import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.shm.ShmFabric;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.core.testing.Fabrics;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link RpcEndpoint} and a peer whose process is killed and started again with new memory (a new incarnation of
 * its node, new rings): a call in flight to the old incarnation fails typed and is never answered by the new one;
 * the next probe after the retry interval reaches the new incarnation, asks the {@link RingResolver} for its rings
 * and calls it there, with every credit back. A restarted caller is answered in turn: the callee, whose response to
 * it fails on the old incarnation, re-learns it when it calls again. In virtual time under seeds on the simulator
 * ({@link SimFabric#crash}), and on the shared-memory fabric, where the old node is closed and opened again.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RpcRestartedPeerTest {
    private static final SimOptions MODEL = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withTransportTimeoutNanos(1_000_000L);
    private static final Duration CONNECT = Duration.ofSeconds(5);
    private static final Duration RETRY = Duration.ofMillis(2);
    private static final Duration ATTEMPT = Duration.ofMillis(20);
    private static final int PLUS = 2;
    private static final int SLOTS = 2;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void shouldCallARestartedCalleeAtItsNewRingsAndFailTheCallInFlightToTheOldOneOnTheSimulator(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (SimFabric fabric = new SimFabric(MODEL)) {
                restartedCallee(fabric, id -> fabric.crash(id));
            }
        });
    }

    @Test
    void shouldCallARestartedCalleeAtItsNewRingsAndFailTheCallInFlightToTheOldOneOnSharedMemory() {
        try (ShmFabric fabric = ShmFabric.open(Fabrics.freshShmDirectory())) {
            restartedCallee(fabric, null);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void shouldAnswerARestartedCallerAtItsNewRingsOnTheSimulator(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (SimFabric fabric = new SimFabric(MODEL)) {
                restartedCaller(fabric, id -> fabric.crash(id));
            }
        });
    }

    @Test
    void shouldAnswerARestartedCallerAtItsNewRingsOnSharedMemory() {
        try (ShmFabric fabric = ShmFabric.open(Fabrics.freshShmDirectory())) {
            restartedCaller(fabric, null);
        }
    }

    /** Kills node {@code id}: {@code crash} on the simulator, else its endpoint and node closed. */
    private interface Kill {
        void kill(int id);
    }

    /** Two nodes, each endpoint's resolver reading the endpoints now open. */
    private static final class Pair {
        final Fabric fabric;
        final AtomicReferenceArray<RpcEndpoint> current = new AtomicReferenceArray<>(2);
        final AtomicReferenceArray<FabricNode> nodes = new AtomicReferenceArray<>(2);

        Pair(Fabric fabric) {
            this.fabric = fabric;
        }

        RingResolver resolver() {
            return (peer, incarnation, timeout) -> {
                long deadline = ThreadTime.nanoTime() + timeout.toNanos();
                while (true) {
                    RpcEndpoint e = current.get(peer);
                    if (e != null && nodes.get(peer).incarnation() == incarnation) {
                        return e.rings();
                    }
                    if (ThreadTime.nanoTime() - deadline >= 0) {
                        return null;
                    }
                    ThreadTime.parkNanos(null, 10_000);
                }
            };
        }

        RpcEndpoint open(int id) {
            FabricNode node = fabric.open(id);
            nodes.set(id, node);
            RpcEndpoint e = RpcEndpoint.create(node, 2, SLOTS);
            e.resolveRingsWith(resolver());
            e.retryLostPeersAfter(RETRY);
            current.set(id, e);
            return e;
        }

        void kill(int id, Kill kill) {
            RpcEndpoint e = current.getAndSet(id, null);
            if (kill != null) {
                kill.kill(id);
            } else {
                e.close();
                nodes.get(id).close();
            }
        }
    }

    /** Serves {@code e} on a thread of its own until {@code stop}. */
    private static Thread serving(RpcEndpoint e, AtomicBoolean stop, AtomicReference<Throwable> failed) {
        Thread t = ThreadTime.newThread("serve-" + e.nodeId(), () -> {
            try {
                while (!stop.get()) {
                    e.serve(Duration.ofMillis(1));
                }
            } catch (Throwable x) {
                failed.compareAndSet(null, x);
            }
        });
        t.start();
        return t;
    }

    private static void join(Thread t) {
        try {
            if (!ThreadTime.join(t, TimeUnit.SECONDS.toNanos(30))) {
                fail(t.getName() + " did not end");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted");
        }
    }

    private static void sleep(long nanos) {
        long end = ThreadTime.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - ThreadTime.nanoTime()) {
            ThreadTime.parkNanos(null, left);
        }
    }

    private static void restartedCallee(Fabric fabric, Kill kill) {
        Pair pair = new Pair(fabric);
        RpcEndpoint caller = pair.open(0);
        RpcEndpoint callee = pair.open(1);
        caller.connect(1, CONNECT);
        callee.connect(0, CONNECT);
        callee.registerLong(PLUS, x -> x + 1);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread first = serving(callee, stop, failed);
        assertEquals(2, caller.callLong(1, PLUS, 1, CONNECT));
        long oldIncarnation = caller.peerIncarnation(1);
        stop.set(true);
        join(first);

        PendingCall inFlight = caller.callAsync(1, PLUS, new byte[8], ATTEMPT);
        pair.kill(1, kill);
        RpcEndpoint reborn = pair.open(1);
        reborn.connect(0, CONNECT);
        reborn.registerLong(PLUS, x -> x + 100);
        AtomicBoolean stop2 = new AtomicBoolean();
        Thread second = serving(reborn, stop2, failed);
        try {
            RuntimeException e = null;
            try {
                inFlight.await(ATTEMPT);
            } catch (PeerUnreachableException | RemoteTimeoutException x) {
                e = x;
            }
            assertTrue(e != null, "the call in flight to the old incarnation is never answered by the new one");
            long answer = -1;
            long deadline = ThreadTime.nanoTime() + CONNECT.toNanos();
            while (answer < 0) {
                try {
                    answer = caller.callLong(1, PLUS, 7, ATTEMPT);
                } catch (PeerUnreachableException | RemoteTimeoutException x) {
                    if (ThreadTime.nanoTime() - deadline > 0) {
                        throw x;
                    }
                    sleep(RETRY.toNanos());
                }
            }
            assertEquals(107, answer, "the new incarnation answers");
            assertEquals(1, caller.relearnedPeers());
            assertNotEquals(oldIncarnation, caller.peerIncarnation(1));
            assertEquals(pair.nodes.get(1).incarnation(), caller.peerIncarnation(1));
            for (long x = 10; x < 30; x++) {
                assertEquals(x + 100, caller.callLong(1, PLUS, x, CONNECT));
            }
            assertEquals(SLOTS, caller.freeCredits(1), "the old incarnation's slots came back");
        } finally {
            stop2.set(true);
            join(second);
        }
        assertNull(failed.get());
    }

    private static void restartedCaller(Fabric fabric, Kill kill) {
        Pair pair = new Pair(fabric);
        RpcEndpoint caller = pair.open(0);
        RpcEndpoint callee = pair.open(1);
        caller.connect(1, CONNECT);
        callee.connect(0, CONNECT);
        callee.registerLong(PLUS, x -> x + 1);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread server = serving(callee, stop, failed);
        try {
            assertEquals(2, caller.callLong(1, PLUS, 1, CONNECT));
            pair.kill(0, kill);
            RpcEndpoint reborn = pair.open(0);
            reborn.connect(1, CONNECT);
            long answer = -1;
            int attempts = 0;
            long deadline = ThreadTime.nanoTime() + CONNECT.toNanos();
            while (answer < 0) {
                attempts++;
                try {
                    answer = reborn.callLong(1, PLUS, 41, ATTEMPT);
                } catch (PeerUnreachableException | RemoteTimeoutException x) {
                    if (ThreadTime.nanoTime() - deadline > 0) {
                        throw x;
                    }
                    sleep(RETRY.toNanos());
                }
            }
            assertEquals(42, answer);
            assertTrue(attempts >= 1);
            for (long x = 50; x < 70; x++) {
                assertEquals(x + 1, reborn.callLong(1, PLUS, x, CONNECT));
            }
        } finally {
            stop.set(true);
            join(server);
        }
        assertNull(failed.get());
        assertEquals(1, callee.relearnedPeers(), "the callee learned the restarted caller's rings once");
        assertEquals(pair.nodes.get(0).incarnation(), callee.peerIncarnation(0));
    }
}
