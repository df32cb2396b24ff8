package io.remus.core.verbs;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.CompletionPolls;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.verbs.testing.DeviceTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Faults on the verbs fabric that the simulator injects and a device produces for real. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VerbsFaultTest {
    @DeviceTest
    void shouldThrowTypedErrorWithinBoundWhenPeerNodeIsClosedUnderIt() {
        var verbs = Fabrics.verbs().findFirst().orElseThrow().getPayload();
        try (TestCluster c = new TestCluster(verbs, SimOptions.defaults(), 2, b -> b.operationTimeout(Duration.ofSeconds(20)));
             ComputeThread t = c.thread(0)) {
            long w = RemotePtr.offset(t.segmentBase(1, 1), 4096);
            assertEquals(0, t.fetchAndAdd(w, 1));
            c.node(1).close();
            PeerUnreachableException e = assertThrows(PeerUnreachableException.class, () -> t.fetchAndAdd(w, 1),
                    "a closed peer's QPs are gone: the transport gives up after its retries, before the 20 s wait");
            assertEquals(1, e.nodeId());
            assertEquals(CompletionStatus.RETRY_EXCEEDED, e.status());
            long local = RemotePtr.offset(t.segmentBase(0, 1), 4096);
            assertEquals(0, t.fetchAndAdd(local, 1), "QPs to other nodes keep working");
        }
    }

    /**
     * The verbs fabric applies a fence in software: it waits for the READs and atomics before it. That wait is
     * bounded by the queue pair's wait timeout. Here the READ goes to a peer whose queue pairs are destroyed, and the
     * wait (100 ms) is shorter than the transport's retries (seven timeouts of ~67 ms), so the fenced request gives
     * up with a typed timeout; should the retries run out first (a thread descheduled past them), the READ completes
     * with an error and the fenced request is flushed.
     */
    @DeviceTest
    void shouldGiveUpOnAFenceWithinItsWaitTimeoutWhenAnEarlierReadNeverCompletes() {
        try (VerbsFabric fabric = VerbsFabric.open(io.remus.verbs.testing.DeviceTests.deviceName())) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            RegisteredMemory remote = b.allocate(4096);
            RegisteredMemory local = a.allocate(4096);
            CompletionQueue cq = a.createCompletionQueue(16);
            QueuePair qp = a.connect(1, cq, 8, Duration.ofMillis(100));
            Completions out = new Completions(4);
            WorkRequests wrs = new WorkRequests(2);
            wrs.addRead(1, local.address(), 8, local.lkey(), remote.address(), remote.rkey(), WorkRequests.SIGNALED);
            qp.post(wrs);
            assertEquals(CompletionStatus.SUCCESS, pollOne(cq, out, 1), "the queue pair works before its peer goes");

            b.close();
            wrs.clear();
            wrs.addRead(2, local.address(), 8, local.lkey(), remote.address(), remote.rkey(), WorkRequests.SIGNALED);
            wrs.addWrite(3, local.address() + 8, 8, local.lkey(), remote.address() + 8, remote.rkey(),
                    WorkRequests.FENCE | WorkRequests.SIGNALED);
            try {
                qp.post(wrs);
            } catch (RemoteTimeoutException e) {
                assertTrue(e.getMessage().contains("fenced request to node 1 waited PT0.1S for 1 earlier READs"),
                        e.getMessage());
                return;
            }
            assertNotEquals(CompletionStatus.SUCCESS, pollOne(cq, out, 2), "a READ to a destroyed queue pair");
        }
    }

    private static CompletionStatus pollOne(CompletionQueue cq, Completions out, long wrId) {
        CompletionPolls.pollSome(cq, out, Duration.ofSeconds(60));
        assertEquals(wrId, out.wrId(0));
        return out.status(0);
    }

    @DeviceTest
    void shouldRejectBeforeNativeCodeWhenFabricArgumentsAreBad() {
        try (VerbsFabric fabric = VerbsFabric.open(io.remus.verbs.testing.DeviceTests.deviceName())) {
            var node = fabric.open(0);
            var cq = node.createCompletionQueue(8);
            assertThrows(BadArgumentException.class, () -> node.connect(5, cq, 4, Duration.ofMinutes(1)), "unknown peer");
            assertThrows(BadArgumentException.class, () -> node.connect(0, cq, 0, Duration.ofMinutes(1)), "zero depth");
            assertThrows(BadArgumentException.class, () -> node.createCompletionQueue(0));
            assertThrows(BadArgumentException.class, () -> node.allocate(0));
            assertThrows(BadArgumentException.class, () -> fabric.open(-1));
            assertThrows(RemusException.class, () -> VerbsFabric.open("no-such-device"));
        }
    }
}
