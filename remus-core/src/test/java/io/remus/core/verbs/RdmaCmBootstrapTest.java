package io.remus.core.verbs;

import io.remus.core.config.ClusterConfig;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.testing.CompletionPolls;
import io.remus.verbs.Access;
import io.remus.verbs.CmConnection;
import io.remus.verbs.CmConnector;
import io.remus.verbs.CmPrivateData;
import io.remus.verbs.ConnectionOptions;
import io.remus.verbs.Context;
import io.remus.verbs.MemoryRegion;
import io.remus.verbs.ProtectionDomain;
import io.remus.verbs.QueuePairBuilder;
import io.remus.verbs.testing.DeviceAddress;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rdma_cm bootstrap between two fabrics of one process (each its own "process" as far as the
 * fabric knows: the peer node is reached only through its address): region tables read over
 * rdma_cm as they change, several lanes per pair, each its own connection, and the loopback QP; a
 * connect request that names this node or a node outside the node list is rejected.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RdmaCmBootstrapTest {
    private static final long WAIT_NANOS = Duration.ofSeconds(60).toNanos();

    private static ClusterConfig twoNodes(String ip) {
        int port = 30000 + ThreadLocalRandom.current().nextInt(20000);
        return ClusterConfig.builder().nodes(List.of(ip + ":" + port, ip + ":" + (port + 1))).build();
    }

    @DeviceTest
    void shouldReleaseServingConnectionsWhenRequesterLeavesAndServeItsSuccessor() {
        String device = DeviceTests.deviceName();
        VerbsFabricOptions options = VerbsFabricOptions.cluster(device, twoNodes(DeviceAddress.ipv4(device)),
                Duration.ofSeconds(60));
        try (VerbsFabric a = VerbsFabric.open(options)) {
            VerbsNode n0 = (VerbsNode) a.open(0);
            RegisteredMemory m0 = n0.allocate(4096);
            n0.publish(m0);
            int idle = n0.servingQueuePairs();
            for (int generation = 1; generation <= 2; generation++) {
                try (VerbsFabric b = VerbsFabric.open(options)) {
                    FabricNode n1 = b.open(1);
                    RemoteRegion r = b.publishedRegions(0).get(0);
                    CompletionQueue cq = n1.createCompletionQueue(16);
                    RegisteredMemory m1 = n1.allocate(4096);
                    WorkRequests w = new WorkRequests(1);
                    for (int lane = 0; lane < 2; lane++) {
                        QueuePair qp = n1.connect(0, cq, 4, Duration.ofMinutes(1));
                        w.clear();
                        w.addFetchAndAdd(lane, m1.address(), m1.lkey(), r.address() + 64, r.rkey(), 1, WorkRequests.SIGNALED);
                        qp.post(w);
                        awaitSuccess(cq, new Completions(4), lane);
                    }
                    assertTrue(n0.servingQueuePairs() >= idle + 2, "serving " + n0.servingQueuePairs());
                }
                long deadline = System.nanoTime() + WAIT_NANOS;
                while (n0.servingQueuePairs() > idle && System.nanoTime() - deadline < 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                }
                assertEquals(idle, n0.servingQueuePairs(), "serving connections of a requester that left");
                assertEquals(2L * generation, m0.segment().get(JAVA_LONG, 64));
            }
        }
    }

    @DeviceTest
    void shouldReadRegionsAndServeEveryLaneWhenPeerIsReachedOverRdmaCm() {
        String device = DeviceTests.deviceName();
        VerbsFabricOptions options = VerbsFabricOptions.cluster(device, twoNodes(DeviceAddress.ipv4(device)),
                Duration.ofSeconds(60));
        try (VerbsFabric a = VerbsFabric.open(options); VerbsFabric b = VerbsFabric.open(options)) {
            FabricNode n0 = a.open(0);
            FabricNode n1 = b.open(1);
            assertEquals(List.of(), b.publishedRegions(0));
            RegisteredMemory m0 = n0.allocate(4096);
            m0.segment().set(JAVA_LONG, 64, 40L);
            n0.publish(m0);
            List<RemoteRegion> regions = b.publishedRegions(0);
            assertEquals(List.of(new RemoteRegion(0, m0.address(), m0.length(), m0.rkey())), regions);
            RemoteRegion r = regions.get(0);
            CompletionQueue cq = n1.createCompletionQueue(16);
            RegisteredMemory m1 = n1.allocate(4096);
            Completions out = new Completions(4);
            WorkRequests w = new WorkRequests(1);
            for (int lane = 0; lane < 3; lane++) {
                QueuePair qp = n1.connect(0, cq, 4, Duration.ofMinutes(1));
                w.clear();
                w.addFetchAndAdd(lane, m1.address(), m1.lkey(), r.address() + 64, r.rkey(), 1, WorkRequests.SIGNALED);
                qp.post(w);
                awaitSuccess(cq, out, lane);
                assertEquals(40L + lane, m1.segment().get(JAVA_LONG, 0));
            }
            assertEquals(43L, m0.segment().get(JAVA_LONG, 64));
            QueuePair self = n1.connect(1, cq, 4, Duration.ofMinutes(1));
            m1.segment().set(JAVA_LONG, 128, 9L);
            w.clear();
            w.addRead(9, m1.address() + 256, 8, m1.lkey(), m1.address() + 128, m1.rkey(), WorkRequests.SIGNALED);
            self.post(w);
            awaitSuccess(cq, out, 9);
            assertEquals(9L, m1.segment().get(JAVA_LONG, 256));
            m0.close();
            assertEquals(List.of(), b.publishedRegions(0));
        }
    }

    @DeviceTest
    void shouldRejectConnectRequestsThatNameThisNodeOrANodeOutsideTheNodeListAndServeTheOthers()
            throws InterruptedException {
        String device = DeviceTests.deviceName();
        VerbsFabricOptions options = VerbsFabricOptions.cluster(device, twoNodes(DeviceAddress.ipv4(device)),
                Duration.ofSeconds(60));
        InetSocketAddress home = options.bootstrapAddresses().get(0);
        String ip = home.getAddress().getHostAddress();
        try (VerbsFabric a = VerbsFabric.open(options);
             Context context = Context.openForRdmaCm(device);
             ProtectionDomain pd = context.allocateProtectionDomain();
             io.remus.verbs.CompletionQueue cq = context.createCompletionQueue(4);
             Arena arena = Arena.ofShared();
             MemoryRegion mr = pd.registerMemory(arena.allocate(4096, 64), Access.LOCAL_WRITE)) {
            VerbsNode n0 = (VerbsNode) a.open(0);
            int idle = n0.servingQueuePairs();
            QueuePairBuilder builder = pd.queuePair().completionQueue(cq).maxSendWorkRequests(1).maxReceiveWorkRequests(1);
            for (int id : new int[] {0, 2, CmPrivateData.MAX_SENDER_ID}) {
                CmPrivateData offer = new CmPrivateData(mr.toRemoteRegion(), id);
                assertThrows(io.remus.verbs.VerbsException.class, () -> CmConnector.connect(builder, ip, home.getPort(), offer,
                        Duration.ofSeconds(2), ConnectionOptions.defaults()), "a request that names node " + id);
            }
            assertEquals(idle, n0.servingQueuePairs(), "nothing of a rejected request is kept");
            try (CmConnection named = CmConnector.connect(builder, ip, home.getPort(),
                    new CmPrivateData(mr.toRemoteRegion(), 1), Duration.ofSeconds(60), ConnectionOptions.defaults())) {
                assertEquals(0, named.peerId(), "the listener names its node");
                long deadline = System.nanoTime() + WAIT_NANOS;
                while (n0.servingQueuePairs() == idle && System.nanoTime() - deadline < 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
                assertEquals(idle + 1, n0.servingQueuePairs(), "a request that names node 1 is served");
            }
        }
    }

    @DeviceTest
    void shouldFailWithTypedErrorWhenNoNodeListensAtPeerAddress() {
        String device = DeviceTests.deviceName();
        VerbsFabricOptions options = VerbsFabricOptions.cluster(device, twoNodes(DeviceAddress.ipv4(device)),
                Duration.ofSeconds(3));
        try (VerbsFabric a = VerbsFabric.open(options)) {
            FabricNode n0 = a.open(0);
            CompletionQueue cq = n0.createCompletionQueue(4);
            assertThrows(PeerUnreachableException.class, () -> a.publishedRegions(1));
            assertThrows(PeerUnreachableException.class, () -> n0.connect(1, cq, 4, Duration.ofMinutes(1)));
        }
    }

    private static void awaitSuccess(CompletionQueue cq, Completions out, long wrId) {
        assertEquals(1, CompletionPolls.pollSome(cq, out, Duration.ofNanos(WAIT_NANOS)), "work request " + wrId);
        assertEquals(wrId, out.wrId(0));
        assertEquals(CompletionStatus.SUCCESS, out.status(0));
    }
}
