package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.memory.RemotePtr;
import io.remus.core.error.PeerRestartedException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a compute thread sees of a peer node restarted with new memory ({@link SimFabric#crash}, then the node opened
 * again): while the new incarnation has not published its segments, a look at them is a
 * {@link PeerUnreachableException} (a later look may find them), not a bad argument; once they are published the
 * thread's allocator places blocks in the new heap, never in runs or caches of the former one, and a name directory
 * made there by the peer works. One queue pair per peer, so that the one look that finds each restart is the one
 * the test makes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RestartedPeerMemoryTest {
    private static final SimOptions OPTIONS = SimOptions.defaults().withTransportTimeoutNanos(20_000_000L);
    private static final int ATTEMPTS = 8;

    @Test
    void shouldReportARestartedNodeUnreachableUntilItPublishesThenAllocateInItsNewHeap() {
        try (TestCluster c = new TestCluster(SimFabric::new, OPTIONS, 2, b -> b.qpLanesPerPeer(1));
             ComputeThread t = c.thread(0)) {
            SimFabric sim = (SimFabric) c.fabric();
            long old = t.allocator().allocate(64, 1);
            t.write(old, 11);
            assertEquals(11, t.read(old));
            sim.crash(1);
            sim.open(1);
            int restarted = 0;
            for (int attempt = 0; attempt < ATTEMPTS && restarted == 0; attempt++) {
                try {
                    t.read(old);
                } catch (PeerRestartedException e) {
                    restarted++;
                } catch (PeerUnreachableException e) {
                    // the request already bound for the dead node
                }
            }
            assertEquals(1, restarted, "the thread saw the restart");
            PeerUnreachableException window = assertThrows(PeerUnreachableException.class, () -> t.segmentCount(1));
            assertEquals(1, window.nodeId());
            assertTrue(window.getMessage().contains("restarted"), window.getMessage());
            assertThrows(PeerUnreachableException.class, () -> t.segmentBase(1, 0));

            ClusterConfig config = c.node(1).config();
            RemusNode fresh = c.restart(1);
            long block = RemotePtr.NULL;
            for (int attempt = 0; attempt < ATTEMPTS && block == RemotePtr.NULL; attempt++) {
                try {
                    block = t.allocator().allocate(64, 1);
                } catch (PeerUnreachableException e) {
                    // the second open is another incarnation: the request bound for the dead one fails, then the
                    // thread sees the restart once (PeerRestartedException)
                }
            }
            assertEquals(config.segmentCount(), t.segmentCount(1), "the thread sees every segment the new node published");
            assertTrue(t.isPublished(block, 64), "a block allocated after the restart lies in the new node's segments");
            t.write(block, 22);
            assertEquals(22, t.read(block));
            NameDirectory names = NameDirectory.open(t, 1);
            assertEquals(block, names.publish("restarted-block", block), "a directory the peer made on the new node");
            try (ComputeThread own = fresh.newComputeThread()) {
                assertEquals(block, NameDirectory.open(own, 1).lookup("restarted-block"));
                assertEquals(22, own.read(block));
            }
        }
    }
}
