package io.remus.ds.replicate;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Plane;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A group's grants switch its plane alone (Mu's replication queue pairs): a revoked leader's plane-0 WRITEs and
 * atomics still land, and logs on different planes of the same nodes grant different leaders independently.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReplicationPlaneTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static MemorySegment entry(int v) {
        return MemorySegment.ofArray(new byte[] {(byte) v, 1, 2, 3});
    }

    @Test
    void shouldFenceARevokedLeadersReplicationWritesButNotItsOtherPlanes() throws InterruptedException {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { })) {
            c.runOnThreads(new int[] {0}, (i, unused) -> {
                ComputeThread[] replication = new ComputeThread[3];
                LogReplica[] replicas = new LogReplica[3];
                List<Integer> applied = new ArrayList<>();
                for (int n = 0; n < 3; n++) {
                    replication[n] = c.thread(n, Plane.REPLICATION);
                    int node = n;
                    replicas[n] = LogReplica.create(c.node(n), replication[n], group, "plane-log", 8, 16,
                            (index, e) -> {
                                if (node == 2) {
                                    applied.add((int) e.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0));
                                }
                            });
                    replicas[n].grantWriteTo(0);
                }
                try (ComputeThread plain = c.thread(0)) {
                    long word = plain.allocator().allocate(8, 2);
                    LogLeader old = LogLeader.open(replication[0], group, "plane-log", 1, TIMEOUT);
                    old.append(entry(1), TIMEOUT);
                    old.flushCommit(TIMEOUT);
                    replicas[1].grantWriteTo(1);
                    replicas[2].grantWriteTo(1);
                    assertThrows(LeaderFencedException.class, () -> old.append(entry(2), TIMEOUT),
                            "the revoked leader's replication WRITEs are refused");
                    assertTrue(old.fencedWrites() > 0);
                    plain.write(word, 41);
                    assertEquals(41, plain.fetchAndAdd(word, 1), "plane 0 of the revoked node still writes node 2");
                    assertEquals(42, plain.read(word));
                    old.close();
                    for (LogReplica r : replicas) {
                        r.applyCommitted();
                    }
                    assertEquals(List.of(1), applied, "the fenced entry is never applied");
                }
                for (ComputeThread t : replication) {
                    t.close();
                }
            });
        }
    }

    @Test
    void shouldLetLogsOnDifferentPlanesOfOneNodeGrantDifferentLeaders() throws InterruptedException {
        ReplicaGroup a = ReplicaGroup.of(0, 1, 2);
        ReplicaGroup b = ReplicaGroup.of(0, 1, 2).onPlane(2);
        ReplicaGroup sameAsA = ReplicaGroup.of(0, 1, 2);
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, x -> { })) {
            c.runOnThreads(new int[] {0}, (i, unused) -> {
                ComputeThread[] ta = new ComputeThread[3];
                ComputeThread[] tb = new ComputeThread[3];
                ComputeThread[] tc = new ComputeThread[3];
                LogReplica[] ra = new LogReplica[3];
                LogReplica[] rb = new LogReplica[3];
                LogReplica[] rc = new LogReplica[3];
                for (int n = 0; n < 3; n++) {
                    ta[n] = c.thread(n, a.plane());
                    tb[n] = c.thread(n, b.plane());
                    tc[n] = c.thread(n, sameAsA.plane());
                    ra[n] = LogReplica.create(c.node(n), ta[n], a, "log-a", 8, 16, (index, e) -> { });
                    rb[n] = LogReplica.create(c.node(n), tb[n], b, "log-b", 8, 16, (index, e) -> { });
                    rc[n] = LogReplica.create(c.node(n), tc[n], sameAsA, "log-c", 8, 16, (index, e) -> { });
                    ra[n].grantWriteTo(0);
                    rb[n].grantWriteTo(1);
                }
                BadArgumentException e = assertThrows(BadArgumentException.class, () -> rc[2].grantWriteTo(2));
                assertTrue(e.getMessage().contains("log-a") && e.getMessage().contains("plane 1"), e.getMessage());
                try (LogLeader la = LogLeader.open(ta[0], a, "log-a", 1, TIMEOUT);
                     LogLeader lb = LogLeader.open(tb[1], b, "log-b", 1, TIMEOUT)) {
                    for (int k = 0; k < 4; k++) {
                        la.append(entry(k), TIMEOUT);
                        lb.append(entry(k), TIMEOUT);
                    }
                    la.flushCommit(TIMEOUT);
                    lb.flushCommit(TIMEOUT);
                    assertEquals(0, la.fencedWrites());
                    assertEquals(0, lb.fencedWrites());
                }
                for (int n = 0; n < 3; n++) {
                    ra[n].applyCommitted();
                    rb[n].applyCommitted();
                    assertEquals(4, ra[n].applied(), "log a on node " + n);
                    assertEquals(4, rb[n].applied(), "log b on node " + n);
                }
                for (int n = 0; n < 3; n++) {
                    ta[n].close();
                    tb[n].close();
                    tc[n].close();
                }
            });
        }
    }
}
