package io.remus.memcached;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.ReplicaGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A follower that stalled while the leader wrote more entries than its shard's log ring holds, then the leader's
 * node killed: one shard on nodes 0, 1, 2 ({@link ReplicatedShards}); node 1's members stand still while a client
 * on node 2 sets {@value #SETS} keys (a majority, nodes 0 and 2, commits each), node 1 runs again, and node 0 is
 * killed. Nodes 1 and 2 are a majority and node 2 holds every entry, so the shard must serve on: every set
 * acknowledged before the kill reads back, node 1 having been brought back from node 0's snapshot image (its ring
 * of {@value #SLOTS} slots no longer held the entries it missed).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplicatedCacheLaggingFollowerTest {
    private static final int SLOTS = 32;
    private static final int SETS = 4 * SLOTS;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void shouldServeEveryAcknowledgedSetAfterTheLeaderDiesWhenAFollowerFellBehindTheRing() throws Exception {
        try (ReplicatedShards store = new ReplicatedShards(1, SLOTS, SimOptions.defaults().withTransportTimeoutNanos(10_000_000))) {
            store.start();
            ReplicatedCacheEngine client = store.engine(2, 500);
            store.paused.set(1, 1);
            for (int i = 0; i < SETS; i++) {
                assertEquals(StoreResult.STORED, client.store(StoreMode.SET, b("k" + i), 0, 0, b("v" + i), 0));
            }
            store.paused.set(1, 0);
            for (int i = 0; i < SLOTS; i++) {
                assertArrayEquals(b("v" + i), client.get(b("k" + i)).value());
                ThreadTime.parkNanos(null, 1_000_000);
            }
            store.kill(0);
            for (int i = 0; i < SETS; i++) {
                Item item;
                try {
                    item = client.get(b("k" + i));
                } catch (RemoteTimeoutException e) {
                    throw new AssertionError("k" + i + " unanswered after node 0 died;" + store.describe(), e);
                }
                assertArrayEquals(b("v" + i), item == null ? null : item.value(), "k" + i + " after node 0 died;"
                        + store.describe());
            }
            store.stopAll();
            assertTrue(store.takeovers[1] + store.takeovers[2] >= 1, "a survivor took the shard over");
            assertTrue(store.members.get(1).replica().snapshotsRestored() >= 1,
                    "node 1, lapped by the ring, was brought back from a snapshot image;" + store.describe());
        }
    }

    @Test
    void shouldRefuseALeaderThreadOffTheGroupsPlaneAndASnapshotIntervalLongerThanHalfTheRing() {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2).onPlane(2);
        Duration d = Duration.ofMillis(10);
        try (TestCluster cluster = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, c -> c.segmentSize(8 << 20));
             ComputeThread t = cluster.thread(0);
             ComputeThread wrong = cluster.thread(0);
             ComputeThread lt = cluster.thread(0, group.plane())) {
            BadArgumentException e = assertThrows(BadArgumentException.class, () -> ReplicatedCacheShard.create(
                    cluster.node(0), t, wrong, group, "mc-0", 0, 1, SLOTS, 200, () -> 0L, 10, d, d, d));
            assertTrue(e.getMessage().contains("plane " + wrong.plane()) && e.getMessage().contains("plane 2"),
                    e.getMessage());
            e = assertThrows(BadArgumentException.class, () -> ReplicatedCacheShard.create(cluster.node(0), t, lt,
                    group, "mc-0", 0, 1, SLOTS, 200, () -> 0L, 10, d, d, d, 4096, SLOTS / 2 + 1));
            assertTrue(e.getMessage().contains("snapshotEvery " + (SLOTS / 2 + 1)), e.getMessage());
            e = assertThrows(BadArgumentException.class, () -> ReplicatedCacheShard.create(cluster.node(0), t, lt,
                    group, "mc-0", 0, 1, SLOTS, 200, () -> 0L, 10, d, d, d, 0, 1));
            assertTrue(e.getMessage().contains("snapshotBytes"), e.getMessage());
        }
    }
}
