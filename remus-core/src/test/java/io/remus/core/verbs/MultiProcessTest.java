package io.remus.core.verbs;

import io.remus.core.testing.ProcessFabric;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three JVM processes, each one node with its own device context, on one device: they bootstrap
 * over rdma_cm (all listening on the device's address, one port each), and once over the TCP
 * fallback.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class MultiProcessTest {
    private static final int NODES = 3;
    /**
     * Each child's limit: in an emulated guest a scenario takes 100-240 s, so the limit leaves room for a slower
     * host; the killed-peer test's survivors get two minutes more, under the test's own 600 s.
     */
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(6);

    private static int basePort() {
        return 20000 + ThreadLocalRandom.current().nextInt(20000);
    }

    private static List<ChildJvm> start(String scenario, ProcessFabric fabric, int ops, BootstrapKind kind) {
        return start(scenario, fabric, ops, kind, basePort());
    }

    private static List<ChildJvm> start(String scenario, ProcessFabric fabric, int ops, BootstrapKind kind, int port) {
        List<ChildJvm> children = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            children.add(ChildJvm.start(MultiNodeMain.class, scenario, fabric.argument(), Integer.toString(i),
                    Integer.toString(NODES), Integer.toString(port), Integer.toString(ops), kind.name()));
        }
        return children;
    }

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    private static void closeAll(List<ChildJvm> children) {
        for (ChildJvm c : children) {
            c.close();
        }
    }

    @DeviceTest
    void shouldCountExactlyWhenThreeProcessesShareCounters() throws InterruptedException {
        countExactly(BootstrapKind.RDMA_CM, 300);
    }

    /**
     * Three processes bootstrapping over the TCP fallback count exactly, while a new silent connection to every
     * node's bootstrap port each second (each held until the server cuts it off) would queue the real peers behind
     * them past their connect timeout if a server served one peer at a time.
     */
    @DeviceTest
    void shouldCountExactlyOverTcpFallbackWhileSilentPeersHoldEveryBootstrapPort() throws InterruptedException {
        int port = basePort();
        AtomicBoolean done = new AtomicBoolean();
        List<Socket> silent = new CopyOnWriteArrayList<>();
        Thread squatter = Thread.ofPlatform().daemon().name("silent-peers").start(() -> {
            while (!done.get()) {
                for (int i = 0; i < NODES && silent.size() < 60 * NODES; i++) {
                    try {
                        silent.add(new Socket(InetAddress.getLoopbackAddress(), port + i));
                    } catch (IOException notListeningYet) {
                        // the node has not started serving; try again
                    }
                }
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
        });
        try {
            countExactly(BootstrapKind.TCP, 100, port);
        } finally {
            done.set(true);
            squatter.join(TimeUnit.SECONDS.toMillis(10));
            for (Socket s : silent) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing test sockets
                }
            }
        }
    }

    private void countExactly(BootstrapKind kind, int ops) throws InterruptedException {
        countExactly(kind, ops, basePort());
    }

    private void countExactly(BootstrapKind kind, int ops, int port) throws InterruptedException {
        List<ChildJvm> children = start("counts", fabric(), ops, kind, port);
        try {
            List<ChildJvm.Result> results = new ArrayList<>();
            for (ChildJvm c : children) {
                results.add(c.await(CHILD_TIMEOUT));
            }
            for (int i = 0; i < NODES; i++) {
                assertTrue(results.get(i).succeeded(), "node " + i + " failed:\n" + results.get(i).output());
            }
            long slots = (long) NODES * ops;
            assertTrue(results.get(0).output().contains("RESULT TOTALS faa=" + (long) NODES * ops + " cas=" + (long) NODES * ops
                    + " slots=" + slots), results.get(0).output());
        } finally {
            closeAll(children);
        }
    }

    @DeviceTest
    void shouldGiveSurvivorsTypedErrorsWhenPeerProcessDiesMidRun() throws Exception {
        List<ChildJvm> children = start("kill", fabric(), 200, BootstrapKind.RDMA_CM);
        try {
            ChildJvm.Result victim = children.get(NODES - 1).await(CHILD_TIMEOUT);
            assertTrue(victim.output().contains("HALTING"), "the victim did not reach its halt:\n" + victim.output());
            assertEquals(137, victim.exitCode());
            for (int i = 0; i < NODES - 1; i++) {
                ChildJvm.Result r = children.get(i).await(Duration.ofMinutes(2));
                assertTrue(r.succeeded(), "survivor " + i + " did not end with a typed error:\n" + r.output());
                assertTrue(r.output().contains("RESULT TYPED "), r.output());
                int n = MultiNodeScenario.AFTER_DEATH;
                assertTrue(r.output().contains(" THEN " + n + " OF " + n + " UNREACHABLE"),
                        "survivor " + i + ": every later operation on the dead node fails as unreachable, and those on"
                                + " a live node succeed:\n" + r.output());
            }
        } finally {
            closeAll(children);
        }
    }
}
