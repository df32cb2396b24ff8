package io.remus.core.sim;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.PeerRestartedException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A simulated node killed and opened again with new memory ({@link SimFabric#crash}): each open is a new nonzero
 * incarnation, a queue pair keeps the one it reached until a reset after the reopen, and a compute thread of another
 * node gets one {@link PeerRestartedException}, then reaches the new node's memory only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SimRestartTest {
    private static final SimOptions OPTIONS = SimOptions.defaults().withTransportTimeoutNanos(20_000_000L);

    @Test
    void shouldGiveEachOpenOfAnIdANewIncarnationAndReachItOnlyAfterAReset() {
        try (SimFabric sim = new SimFabric(OPTIONS)) {
            FabricNode a = sim.open(0);
            FabricNode b = sim.open(1);
            long first = b.incarnation();
            assertNotEquals(0, first);
            assertNotEquals(a.incarnation(), first, "two nodes of one fabric differ");
            CompletionQueue cq = a.createCompletionQueue(16);
            QueuePair qp = a.connect(1, cq, 4, Duration.ofSeconds(1));
            assertEquals(first, qp.peerIncarnation());
            sim.crash(1);
            qp.reset();
            assertEquals(first, qp.peerIncarnation(), "no node of id 1 is open: the queue pair stays with the dead one");
            assertThrows(BadArgumentException.class, () -> sim.crash(1));
            FabricNode again = sim.open(1);
            long second = again.incarnation();
            assertNotEquals(0, second);
            assertNotEquals(first, second);
            assertEquals(first, qp.peerIncarnation(), "a queue pair reaches the new node only once reset");
            qp.reset();
            assertEquals(second, qp.peerIncarnation());
            b.close();
            assertEquals(second, sim.open(2).incarnation() - 1, "closing the dead node's handle changes nothing");
        }
    }

    @Test
    void shouldRefuseAConnectionToACrashedNodeAsUnreachableAndToAnIdNeverOpenAsUnknown() {
        try (SimFabric sim = new SimFabric(OPTIONS)) {
            FabricNode a = sim.open(0);
            sim.open(1);
            CompletionQueue cq = a.createCompletionQueue(16);
            sim.crash(1);
            PeerUnreachableException gone = assertThrows(PeerUnreachableException.class,
                    () -> a.connect(1, cq, 4, Duration.ofSeconds(1)));
            assertEquals(1, gone.nodeId());
            assertThrows(BadArgumentException.class, () -> a.connect(5, cq, 4, Duration.ofSeconds(1)),
                    "an id no node ever opened is unknown");
            sim.open(1);
            assertNotEquals(0, a.connect(1, cq, 4, Duration.ofSeconds(1)).peerIncarnation(),
                    "once the id is open again, a connection reaches the new node");
        }
    }

    @Test
    void shouldThrowPeerRestartedOnceThenReadTheNewNodesMemoryOnly() {
        try (TestCluster c = new TestCluster(SimFabric::new, OPTIONS, 2, b -> { });
             ComputeThread t = c.thread(0)) {
            long old = t.allocator().allocate(64, 1);
            t.write(old, 11);
            assertEquals(11, t.read(old));
            RemusNode fresh = c.restart(1);
            assertNotEquals(0, fresh.fabricNode().incarnation());
            long now;
            try (ComputeThread own = fresh.newComputeThread()) {
                now = own.allocator().allocate(64, 1);
                own.write(now, 22);
                assertEquals(0, own.read(now + 8), "the new node's memory starts zeroed");
            }
            int restarted = 0;
            int unreachable = 0;
            long value = -1;
            for (int attempt = 0; attempt < 4 && value < 0; attempt++) {
                try {
                    value = t.read(now);
                } catch (PeerRestartedException e) {
                    restarted++;
                    assertEquals(1, e.nodeId());
                    assertNotEquals(e.formerIncarnation(), e.incarnation());
                } catch (PeerUnreachableException e) {
                    unreachable++;
                }
            }
            assertEquals(1, restarted, "one PeerRestartedException (and " + unreachable + " unreachable before it)");
            assertTrue(unreachable <= 1, "at most the request already bound for the dead node fails unreachable");
            assertEquals(22, value, "the read reaches the new node's memory");
            assertEquals(22, t.read(now));
            t.write(now, 33);
            assertEquals(33, t.read(now), "later operations go on without another exception");
        }
    }
}
