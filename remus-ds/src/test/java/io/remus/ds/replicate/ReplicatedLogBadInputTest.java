package io.remus.ds.replicate;

import io.remus.core.fabric.Plane;
import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input to the replicated log: each refused with a typed error naming the value, before any RDMA operation. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReplicatedLogBadInputTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static void assertNames(BadArgumentException e, String... parts) {
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), "\"" + e.getMessage() + "\" names " + p);
        }
    }

    @Test
    void shouldRefuseGroupsThatAreNotTwoFPlusOneDistinctNodes() {
        assertNames(assertThrows(BadArgumentException.class, () -> ReplicaGroup.of(0, 1)), "got 2 members");
        assertNames(assertThrows(BadArgumentException.class, () -> ReplicaGroup.of(0)), "got 1 members");
        assertNames(assertThrows(BadArgumentException.class, () -> ReplicaGroup.of()), "got 0 members");
        assertNames(assertThrows(BadArgumentException.class, () -> ReplicaGroup.of(0, 1, 2, 3)), "got 4 members");
        assertNames(assertThrows(BadArgumentException.class, () -> ReplicaGroup.of(0, 1, 1)), "node 1 appears twice");
        assertNames(assertThrows(BadArgumentException.class, () -> ReplicaGroup.of(0, -3, 1)), "got -3");
        ReplicaGroup g = ReplicaGroup.of(4, 2, 7, 1, 0);
        assertEquals(5, g.size());
        assertEquals(2, g.faultsTolerated());
        assertEquals(3, g.majority());
        assertEquals(-1, g.indexOf(3));
    }

    @Test
    void shouldRefuseTheDefaultPlaneAndPlanesOutOfRangeForAGroup() {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        assertEquals(Plane.REPLICATION, group.plane());
        assertEquals(7, group.onPlane(7).plane());
        assertEquals(1, group.onPlane(7).member(1), "the same members");
        assertNames(assertThrows(BadArgumentException.class, () -> group.onPlane(Plane.DEFAULT)), "default plane 0");
        assertNames(assertThrows(BadArgumentException.class, () -> group.onPlane(Plane.COUNT)), "got 16");
        assertNames(assertThrows(BadArgumentException.class, () -> group.onPlane(-1)), "got -1");
    }

    @Test
    void shouldRefuseALeaderThreadOffTheGroupsPlaneBeforeAnyRead() throws InterruptedException {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { })) {
            c.runOnThreads(new int[] {0}, (i, unused) -> {
                try (ComputeThread plain = c.thread(0); ComputeThread other = c.thread(0, 3)) {
                    for (ComputeThread t : new ComputeThread[] {plain, other}) {
                        String plane = "plane " + t.plane();
                        assertNames(assertThrows(BadArgumentException.class, () -> LogLeader.open(t, group, "planes", 1,
                                TIMEOUT)), plane, "replicates on plane 1", "planes");
                        assertNames(assertThrows(BadArgumentException.class, () -> LogLeader.takeOver(t, group, "planes",
                                TIMEOUT)), plane, "replicates on plane 1");
                        assertEquals(0, t.postedOperations(Opcode.READ), "nothing was read");
                    }
                }
            });
        }
    }

    @Test
    void shouldRefuseNodesOutsideTheGroupAndBadShapesAndOversizedEntries() throws InterruptedException {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 4, b -> { })) {
            ComputeThread[] threads = new ComputeThread[4];
            LogReplica[] replicas = new LogReplica[3];
            c.runOnThreads(new int[] {0}, (i, unused) -> {
                for (int n = 0; n < 4; n++) {
                    threads[n] = c.thread(n, Plane.REPLICATION);
                }
                for (int n = 0; n < 3; n++) {
                    replicas[n] = LogReplica.create(c.node(n), threads[n], group, "bad-input", 4, 32, (index, e) -> { });
                }
                assertNames(assertThrows(BadArgumentException.class, () -> LogReplica.create(c.node(3), threads[3], group,
                        "bad-input", 4, 32, (index, e) -> { })), "replica node 3 is not in the replica group [0, 1, 2]");
                assertNames(assertThrows(BadArgumentException.class, () -> LogReplica.create(c.node(1), threads[0], group,
                        "other", 4, 32, (index, e) -> { })), "node 0 given for replica node 1");
                assertNames(assertThrows(BadArgumentException.class, () -> LogReplica.create(c.node(0), threads[0], group,
                        "other", 1, 32, (index, e) -> { })), "got 1");
                assertNames(assertThrows(BadArgumentException.class, () -> LogReplica.create(c.node(0), threads[0], group,
                        "other", 4, 0, (index, e) -> { })), "got 0");
                assertNames(assertThrows(BadArgumentException.class, () -> LogReplica.create(c.node(0), threads[0], group,
                        "bad-input", 4, 32, (index, e) -> { })), "bound on node 0 already");
                assertNames(assertThrows(BadArgumentException.class, () -> replicas[1].grantWriteTo(3)),
                        "leader node 3 is not in the replica group");
                assertNames(assertThrows(BadArgumentException.class, () -> LogLeader.open(threads[3], group, "bad-input", 1,
                        TIMEOUT)), "leader node 3 is not in the replica group");
                assertNames(assertThrows(BadArgumentException.class, () -> LogReplica.restart(c.node(0), threads[0], group,
                        "never-created", (index, e) -> { })), "log name \"never-created\" is not bound on node 0");
                assertNames(assertThrows(BadArgumentException.class, () -> LogReplica.restart(c.node(3), threads[3], group,
                        "bad-input", (index, e) -> { })), "replica node 3 is not in the replica group");
                long reads = threads[0].postedOperations(Opcode.READ);
                assertNames(assertThrows(BadArgumentException.class, () -> ReplicaAgent.open(replicas[0], "bad-input", 0,
                        TIMEOUT)), "suspectAfter must be at least 1 READ, got 0");
                assertNames(assertThrows(BadArgumentException.class, () -> LogLeader.takeOver(threads[3], group, "bad-input",
                        TIMEOUT)), "leader node 3 is not in the replica group");
                assertEquals(reads, threads[0].postedOperations(Opcode.READ), "nothing was read");
                try (ReplicaAgent agent = ReplicaAgent.open(replicas[0], "bad-input", 4, TIMEOUT)) {
                    assertNames(assertThrows(BadArgumentException.class, () -> agent.isSuspected(3)),
                            "member node 3 is not in the replica group");
                    assertEquals(0, agent.leader(), "before any poll every member is trusted");
                }
                try (LogLeader leader = LogLeader.open(threads[0], group, "bad-input", 1, TIMEOUT)) {
                    long before = threads[0].postedOperations(Opcode.READ);
                    assertNames(assertThrows(BadArgumentException.class, () -> leader.reattach(3, TIMEOUT)),
                            "follower node 3 is not in the replica group");
                    assertNames(assertThrows(BadArgumentException.class, () -> leader.reattach(0, TIMEOUT)),
                            "node 0 is the leader's own");
                    assertEquals(before, threads[0].postedOperations(Opcode.READ), "nothing was read");
                    assertTrue(leader.reattach(1, TIMEOUT), "an attached follower is attached");
                    assertEquals(32, leader.maxEntryBytes());
                    long writes = threads[0].postedOperations(Opcode.WRITE);
                    assertNames(assertThrows(BadArgumentException.class,
                            () -> leader.append(MemorySegment.ofArray(new byte[33]), TIMEOUT)), "entry of 33 bytes", "1..32");
                    assertNames(assertThrows(BadArgumentException.class,
                            () -> leader.append(MemorySegment.ofArray(new byte[0]), TIMEOUT)), "entry of 0 bytes");
                    assertNames(assertThrows(BadArgumentException.class, () -> leader.isAttached(3)),
                            "follower node 3 is not in the replica group");
                    assertEquals(writes, threads[0].postedOperations(Opcode.WRITE), "nothing was written");
                    assertEquals(0, leader.append(MemorySegment.ofArray(new byte[32]), TIMEOUT));
                }
                for (ComputeThread t : threads) {
                    t.close();
                }
            });
        }
    }
}
