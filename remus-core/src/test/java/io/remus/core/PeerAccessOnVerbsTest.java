package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.PeerAccess;
import io.remus.core.fabric.Plane;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.CompletionPolls;
import io.remus.core.testing.Fabrics;
import io.remus.core.verbs.VerbsFabric;
import io.remus.core.verbs.VerbsFabricOptions;
import io.remus.verbs.testing.DeviceAddress;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PeerAccessTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, both nodes in this process):
 * the switch is {@code ibv_modify_qp} with {@code IBV_QP_ACCESS_FLAGS} on the memory node's serving queue
 * pairs of the compute node, and a refused WRITE completes with {@code IBV_WC_REM_ACCESS_ERR}. Also the
 * switch over rdma_cm connections, with the memory node and two requesters in three fabrics of this process
 * (each its own process as far as the fabric knows): the memory node knows each connection's requester from
 * its connect request, so holding one requester read-only leaves the other's writes alone; and from the plane
 * its connect request names, so holding one plane of a requester read-only leaves its other plane's writes alone.
 */
@Tag(DeviceTests.TAG)
class PeerAccessOnVerbsTest extends PeerAccessTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /**
     * Soft-RoCE answers a request its queue pair's access flags refuse with an invalid-request NAK
     * ({@code check_op_valid} in {@code rxe_resp.c}): {@code IBV_WC_REM_INV_REQ_ERR}.
     */
    @Override
    Set<CompletionStatus> refusals() {
        return Set.of(CompletionStatus.REMOTE_ACCESS_ERROR, CompletionStatus.REMOTE_INVALID_REQUEST);
    }

    /** Verbs returns when {@code ibv_modify_qp} does; a WRITE the device was executing then is the device's. */
    @Override
    boolean switchWaitsForExecutingWrites() {
        return false;
    }

    /** The word the requesters WRITE, at this offset of the memory node's region. */
    private static final long WRITTEN = 64;
    /** The word the requesters fetch-and-add, at this offset of the memory node's region. */
    private static final long COUNTED = 128;

    /** One requester node in its own fabric, with one queue pair to node 0 over rdma_cm (of one plane). */
    private static final class Requester {
        private final FabricNode node;
        private final RemoteRegion region;
        private final CompletionQueue cq;
        private final QueuePair qp;
        private final RegisteredMemory mine;
        private final WorkRequests wrs = new WorkRequests(1);
        private final Completions out = new Completions(4);

        Requester(VerbsFabric fabric, int nodeId) {
            this(fabric, fabric.open(nodeId), Plane.DEFAULT);
        }

        Requester(VerbsFabric fabric, FabricNode node, int plane) {
            this.node = node;
            region = fabric.publishedRegions(0).get(0);
            cq = node.createCompletionQueue(16);
            mine = node.allocate(4096);
            qp = node.connect(0, plane, cq, 4, Duration.ofMinutes(1));
        }

        CompletionStatus write(long value) {
            mine.segment().set(JAVA_LONG, 0, value);
            wrs.clear();
            wrs.addWrite(1, mine.address(), 8, mine.lkey(), region.address() + WRITTEN, region.rkey(), WorkRequests.SIGNALED);
            return run();
        }

        CompletionStatus fetchAndAdd(long delta) {
            wrs.clear();
            wrs.addFetchAndAdd(2, mine.address() + 8, mine.lkey(), region.address() + COUNTED, region.rkey(), delta,
                    WorkRequests.SIGNALED);
            return run();
        }

        long read(long offset) {
            wrs.clear();
            wrs.addRead(3, mine.address() + 16, 8, mine.lkey(), region.address() + offset, region.rkey(),
                    WorkRequests.SIGNALED);
            assertEquals(CompletionStatus.SUCCESS, run(), "node " + node.nodeId() + "'s READ");
            return mine.segment().get(JAVA_LONG, 16);
        }

        /** Resets the queue pair after a refusal: a new rdma_cm connection, served with the access then in force. */
        void reset() {
            assertTrue(qp.inError(), "a refused request puts node " + node.nodeId() + "'s queue pair in error");
            qp.reset();
            assertFalse(qp.inError());
        }

        private CompletionStatus run() {
            qp.post(wrs);
            assertEquals(1, CompletionPolls.pollSome(cq, out, Duration.ofSeconds(30)), "node " + node.nodeId() + "'s completion");
            return out.status(0);
        }
    }

    private void assertRefused(CompletionStatus status, String what) {
        assertTrue(refusals().contains(status), what + " is refused: " + status);
    }

    @DeviceTest
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldSwitchExactlyOneRequesterWhenRequestersConnectOverRdmaCm() {
        String device = DeviceTests.deviceName();
        String ip = DeviceAddress.ipv4(device);
        int port = 30000 + ThreadLocalRandom.current().nextInt(20000);
        ClusterConfig three = ClusterConfig.builder()
                .nodes(List.of(ip + ":" + port, ip + ":" + (port + 1), ip + ":" + (port + 2))).build();
        VerbsFabricOptions options = VerbsFabricOptions.cluster(device, three, Duration.ofSeconds(60));
        try (VerbsFabric home = VerbsFabric.open(options);
             VerbsFabric firstFabric = VerbsFabric.open(options);
             VerbsFabric secondFabric = VerbsFabric.open(options)) {
            FabricNode memory = home.open(0);
            RegisteredMemory region = memory.allocate(4096);
            memory.publish(region);
            Requester first = new Requester(firstFabric, 1);
            Requester second = new Requester(secondFabric, 2);
            assertEquals(CompletionStatus.SUCCESS, first.write(5));
            assertEquals(CompletionStatus.SUCCESS, second.fetchAndAdd(1));

            memory.setPeerAccess(1, PeerAccess.READ_ONLY);

            assertEquals(CompletionStatus.SUCCESS, second.write(22), "node 2 keeps its write access");
            assertEquals(CompletionStatus.SUCCESS, second.fetchAndAdd(1), "node 2 keeps its atomics");
            assertEquals(1L, second.mine.segment().get(JAVA_LONG, 8));
            assertRefused(first.write(11), "node 1's WRITE");
            first.reset();
            // the new connection's access is set just after rdma_accept (VerbsNode.setPeerAccess, known gap):
            // a switch called once the connection is established returns only when it serves the access
            memory.setPeerAccess(1, PeerAccess.READ_ONLY);
            assertRefused(first.fetchAndAdd(100), "node 1's fetch-and-add on a new connection");
            first.reset();
            assertEquals(22L, first.read(WRITTEN), "node 1's reads stay open");
            assertEquals(22L, region.segment().get(JAVA_LONG, WRITTEN));
            assertEquals(2L, region.segment().get(JAVA_LONG, COUNTED), "a refused atomic changes nothing");
            assertEquals(List.of(region.address()), firstFabric.publishedRegions(0).stream().map(RemoteRegion::address).toList(),
                    "the region table, read over a connection that names no node, stays readable");

            memory.setPeerAccess(1, PeerAccess.READ_WRITE);
            memory.setPeerAccess(2, PeerAccess.READ_ONLY);

            assertEquals(CompletionStatus.SUCCESS, first.write(33), "node 1 has its write access back");
            assertEquals(CompletionStatus.SUCCESS, first.fetchAndAdd(1), "node 1 has its atomics back");
            assertEquals(2L, first.mine.segment().get(JAVA_LONG, 8));
            assertRefused(second.write(44), "node 2's WRITE");
            second.reset();
            memory.setPeerAccess(2, PeerAccess.READ_ONLY);
            assertRefused(second.fetchAndAdd(100), "node 2's fetch-and-add on a new connection");
            second.reset();
            assertEquals(33L, second.read(WRITTEN), "node 2's reads stay open");
            assertEquals(33L, region.segment().get(JAVA_LONG, WRITTEN));
            assertEquals(3L, region.segment().get(JAVA_LONG, COUNTED));
        }
    }
    @DeviceTest
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldSwitchOnePlaneOfRequesterWhenItConnectsPlanesOverRdmaCm() {
        String device = DeviceTests.deviceName();
        String ip = DeviceAddress.ipv4(device);
        int port = 30000 + ThreadLocalRandom.current().nextInt(20000);
        ClusterConfig two = ClusterConfig.builder().nodes(List.of(ip + ":" + port, ip + ":" + (port + 1))).build();
        VerbsFabricOptions options = VerbsFabricOptions.cluster(device, two, Duration.ofSeconds(60));
        try (VerbsFabric home = VerbsFabric.open(options);
             VerbsFabric away = VerbsFabric.open(options)) {
            FabricNode memory = home.open(0);
            RegisteredMemory region = memory.allocate(4096);
            memory.publish(region);
            FabricNode node = away.open(1);
            Requester plain = new Requester(away, node, Plane.DEFAULT);
            Requester replication = new Requester(away, node, Plane.REPLICATION);
            assertEquals(CompletionStatus.SUCCESS, replication.write(5));

            memory.setPeerAccess(1, Plane.REPLICATION, PeerAccess.READ_ONLY);

            assertRefused(replication.write(11), "node 1's plane-1 WRITE");
            assertEquals(CompletionStatus.SUCCESS, plain.write(22), "node 1's plane 0 keeps its write access");
            assertEquals(CompletionStatus.SUCCESS, plain.fetchAndAdd(1), "node 1's plane 0 keeps its atomics");
            replication.reset();
            memory.setPeerAccess(1, Plane.REPLICATION, PeerAccess.READ_ONLY);
            assertRefused(replication.fetchAndAdd(100), "node 1's plane-1 fetch-and-add on a new connection");
            replication.reset();
            assertEquals(22L, replication.read(WRITTEN), "plane-1 reads stay open");
            assertEquals(1L, region.segment().get(JAVA_LONG, COUNTED), "a refused atomic changes nothing");

            memory.setPeerAccess(1, Plane.DEFAULT, PeerAccess.READ_ONLY);
            memory.setPeerAccess(1, Plane.REPLICATION, PeerAccess.READ_WRITE);

            assertRefused(plain.write(33), "node 1's plane-0 WRITE");
            assertEquals(CompletionStatus.SUCCESS, replication.write(44), "plane 1 has its write access back");
            assertEquals(44L, region.segment().get(JAVA_LONG, WRITTEN));
        }
    }
}
