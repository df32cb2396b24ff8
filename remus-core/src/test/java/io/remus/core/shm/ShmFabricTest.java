package io.remus.core.shm;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.RemusException;
import io.remus.core.error.ResourceInUseException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.Opcode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared-memory fabric in one JVM: two fabrics opened on one directory stand for two processes
 * (each maps the other's files; neither sees the other's objects), node 0 on one, node 1 on the
 * other.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ShmFabricTest {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;

    private Path dir;
    private ShmFabric first;
    private ShmFabric second;
    private FabricNode a;
    private FabricNode b;
    private RegisteredMemory remote;
    private RemoteRegion region;
    private RegisteredMemory local;
    private CompletionQueue cq;
    private QueuePair qp;
    private final Completions out = new Completions(16);
    private final WorkRequests wrs = new WorkRequests(16);

    @BeforeEach
    void openTwoProcessesViews() {
        dir = Fabrics.freshShmDirectory();
        first = ShmFabric.open(dir);
        second = ShmFabric.open(dir);
        a = first.open(0);
        b = second.open(1);
        remote = b.allocate(4096);
        b.publish(remote);
        region = first.publishedRegions(1).get(0);
        local = a.allocate(4096);
        cq = a.createCompletionQueue(64);
        qp = a.connect(1, cq, 16, Duration.ofSeconds(10));
    }

    @AfterEach
    void close() {
        first.close();
        second.close();
        ShmFabric.removeFiles(dir);
    }

    private int poll() {
        return cq.poll(out);
    }

    @Test
    void shouldShareOneClusterIdAndFindPublicationsThroughTheDirectory() {
        assertEquals(first.clusterId(), second.clusterId());
        assertEquals("shm", first.name());
        assertEquals(List.of(new RemoteRegion(1, remote.address(), 4096, remote.rkey())), first.publishedRegions(1));
        assertEquals(second.publishedRegions(1), first.publishedRegions(1));
        assertTrue(first.publishedRegions(2).isEmpty(), "a node that never opened publishes nothing");
        assertTrue(Files.isRegularFile(dir.resolve("node-1").resolve("region-" + remote.rkey())));
    }

    @Test
    void shouldReadWhatThePeerProcessWrote() {
        remote.segment().set(LONG, 64, 0x1122334455667788L);
        remote.segment().set(LONG, 72, 99L);
        wrs.addRead(1, local.address() + 8, 16, local.lkey(), region.address() + 64, region.rkey(), WorkRequests.SIGNALED);
        qp.post(wrs);
        assertEquals(1, poll());
        assertEquals(CompletionStatus.SUCCESS, out.status(0));
        assertEquals(Opcode.READ, out.opcode(0));
        assertEquals(0x1122334455667788L, local.segment().get(LONG, 8));
        assertEquals(99L, local.segment().get(LONG, 16));
    }

    @Test
    void shouldWriteIntoThePeerProcesssMemory() {
        for (int i = 0; i < 5; i++) {
            local.segment().set(ValueLayout.JAVA_BYTE, 100 + i, (byte) (i + 1));
        }
        wrs.addWrite(2, local.address() + 100, 5, local.lkey(), region.address() + 3, region.rkey(), WorkRequests.SIGNALED);
        qp.post(wrs);
        assertEquals(1, poll());
        assertEquals(CompletionStatus.SUCCESS, out.status(0));
        for (int i = 0; i < 5; i++) {
            assertEquals(i + 1, remote.segment().get(ValueLayout.JAVA_BYTE, 3 + i), "byte " + i);
        }
        assertEquals(0, remote.segment().get(ValueLayout.JAVA_BYTE, 8), "nothing past the written range");
    }

    @Test
    void shouldSwapOnlyWhenTheWordHoldsTheExpectedValue() {
        remote.segment().set(LONG, 128, 7L);
        wrs.addCompareAndSwap(3, local.address(), local.lkey(), region.address() + 128, region.rkey(), 6, 100, WorkRequests.SIGNALED);
        wrs.addCompareAndSwap(4, local.address() + 8, local.lkey(), region.address() + 128, region.rkey(), 7, 100, WorkRequests.SIGNALED);
        qp.post(wrs);
        assertEquals(2, poll());
        assertEquals(CompletionStatus.SUCCESS, out.status(0));
        assertEquals(CompletionStatus.SUCCESS, out.status(1));
        assertEquals(Opcode.COMPARE_AND_SWAP, out.opcode(1));
        assertEquals(7L, local.segment().get(LONG, 0), "a failed compare returns the word");
        assertEquals(7L, local.segment().get(LONG, 8), "a successful one returns the old word");
        assertEquals(100L, remote.segment().get(LONG, 128));
    }

    @Test
    void shouldAddAndReturnTheOldValue() {
        remote.segment().set(LONG, 256, 40L);
        wrs.addFetchAndAdd(5, local.address(), local.lkey(), region.address() + 256, region.rkey(), 2, 0);
        wrs.addFetchAndAdd(6, local.address() + 8, local.lkey(), region.address() + 256, region.rkey(), -1, WorkRequests.SIGNALED);
        qp.post(wrs);
        assertEquals(1, poll(), "only the signalled request completes");
        assertEquals(6, out.wrId(0));
        assertEquals(Opcode.FETCH_AND_ADD, out.opcode(0));
        assertEquals(40L, local.segment().get(LONG, 0));
        assertEquals(42L, local.segment().get(LONG, 8));
        assertEquals(41L, remote.segment().get(LONG, 256));
    }

    @Test
    void shouldKeepFetchAndAddsAtomicWhenThreadsOfBothProcessesAddToOneWord() throws Exception {
        FabricNode c = second.open(2);
        int threads = 4;
        int adds = 5_000;
        Thread[] workers = new Thread[threads];
        Throwable[] failures = new Throwable[threads];
        for (int t = 0; t < threads; t++) {
            FabricNode from = t % 2 == 0 ? a : c;
            int id = t;
            workers[t] = new Thread(() -> {
                try (RegisteredMemory mine = from.allocate(4096); CompletionQueue q = from.createCompletionQueue(64);
                     QueuePair p = from.connect(1, q, 16, Duration.ofSeconds(10))) {
                    Completions done = new Completions(1);
                    WorkRequests w = new WorkRequests(1);
                    for (int i = 0; i < adds; i++) {
                        w.clear();
                        w.addFetchAndAdd(i, mine.address(), mine.lkey(), region.address() + 512, region.rkey(), 1, WorkRequests.SIGNALED);
                        p.post(w);
                        if (q.poll(done) != 1 || done.status(0) != CompletionStatus.SUCCESS) {
                            throw new AssertionError("fetch-and-add " + i + " did not complete: " + done.status(0));
                        }
                    }
                } catch (Throwable e) {
                    failures[id] = e;
                }
            });
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis(25));
        }
        for (Throwable f : failures) {
            if (f != null) {
                throw new AssertionError(f);
            }
        }
        assertEquals((long) threads * adds, remote.segment().get(LONG, 512));
    }

    @Test
    void shouldReportEveryOutcomeOnlyThroughTheCompletionQueue() {
        remote.segment().set(LONG, 0, 5L);
        wrs.addRead(10, local.address(), 8, local.lkey(), region.address(), region.rkey(), 0);
        qp.post(wrs);
        assertEquals(0, poll(), "an unsignalled success yields no completion");
        assertEquals(5L, local.segment().get(LONG, 0));

        wrs.clear();
        wrs.addRead(11, local.address(), 8, local.lkey(), region.address(), region.rkey(), WorkRequests.SIGNALED);
        qp.post(wrs);
        assertFalse(qp.inError());
        assertEquals(1, cq.poll(out, Duration.ofSeconds(5)));
        assertEquals(11, out.wrId(0));
        assertEquals(0, poll(), "each completion is handed out once");

        wrs.clear();
        wrs.addRead(12, local.address(), 8, local.lkey(), region.address(), region.rkey() + 1000, 0);
        wrs.addWrite(13, local.address(), 8, local.lkey(), region.address(), region.rkey(), 0);
        wrs.addRead(14, local.address(), 8, local.lkey(), region.address(), region.rkey(), WorkRequests.SIGNALED);
        remote.segment().set(LONG, 0, 6L);
        qp.post(wrs);
        assertEquals(3, poll(), "an unsignalled failure completes, and flushes every later request");
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, out.status(0));
        assertEquals(12, out.wrId(0));
        assertEquals(CompletionStatus.FLUSHED, out.status(1));
        assertEquals(CompletionStatus.FLUSHED, out.status(2));
        assertEquals(6L, remote.segment().get(LONG, 0), "a flushed WRITE wrote nothing");
        assertTrue(qp.inError());
        qp.reset();
        assertFalse(qp.inError());
    }

    @Test
    void shouldCompleteWithRemoteAccessErrorWhenTheRkeyIsUnknownOrTheRangeOutside() {
        long[][] cases = {
            {region.rkey() + 1000L, region.address(), 8},
            {region.rkey(), region.address() + 4090, 8},
            {region.rkey(), region.address() - 8, 8},
            {local.rkey(), local.address(), 8},
        };
        for (long[] c : cases) {
            wrs.clear();
            wrs.addRead(1, local.address(), (int) c[2], local.lkey(), c[1], (int) c[0], WorkRequests.SIGNALED);
            qp.post(wrs);
            assertEquals(1, poll());
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, out.status(0), "rkey " + c[0] + " address " + c[1]
                    + " (the last: node 0's own rkey, sent to node 1)");
            qp.reset();
        }
    }

    @Test
    void shouldCompleteWithRemoteAccessErrorOnceThePeerDeregistered() {
        wrs.addRead(1, local.address(), 8, local.lkey(), region.address(), region.rkey(), WorkRequests.SIGNALED);
        qp.post(wrs);
        assertEquals(1, poll());
        assertEquals(CompletionStatus.SUCCESS, out.status(0), "mapped while registered");
        remote.close();
        assertTrue(first.publishedRegions(1).isEmpty(), "deregistering withdraws the publication");
        qp.post(wrs);
        assertEquals(1, poll());
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, out.status(0));
        assertFalse(Files.exists(dir.resolve("node-1").resolve("region-" + region.rkey())));
    }

    @Test
    void shouldCompleteWithLocalProtectionErrorWhenTheLkeyDoesNotCoverTheBuffer() {
        wrs.addWrite(1, local.address(), 8, local.lkey() + 1000, region.address(), region.rkey(), WorkRequests.SIGNALED);
        qp.post(wrs);
        assertEquals(1, poll());
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, out.status(0));
        qp.reset();
        wrs.clear();
        wrs.addRead(2, local.address() + 4092, 8, local.lkey(), region.address(), region.rkey(), WorkRequests.SIGNALED);
        qp.post(wrs);
        assertEquals(1, poll());
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, out.status(0), "a buffer past the registration's end");
    }

    @Test
    void shouldCompleteWithRemoteInvalidRequestWhenAnAtomicIsMisaligned() {
        wrs.addFetchAndAdd(1, local.address(), local.lkey(), region.address() + 4, region.rkey(), 1, WorkRequests.SIGNALED);
        qp.post(wrs);
        assertEquals(1, poll());
        assertEquals(CompletionStatus.REMOTE_INVALID_REQUEST, out.status(0));
        assertEquals(0L, remote.segment().get(LONG, 0));
    }

    @Test
    void shouldCompleteWithRetryExceededOnceThePeerNodeClosed() {
        second.close();
        wrs.addRead(1, local.address(), 8, local.lkey(), region.address(), region.rkey(), WorkRequests.SIGNALED);
        qp.post(wrs);
        assertEquals(1, poll());
        assertEquals(CompletionStatus.RETRY_EXCEEDED, out.status(0));
        assertTrue(first.publishedRegions(1).isEmpty());
    }

    @Test
    void shouldReachCallerOwnedMemoryFromThisProcessOnly() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment own = arena.allocate(64, 8);
            own.set(LONG, 0, 17L);
            RegisteredMemory registered = b.register(own);
            FabricNode sameProcess = second.open(3);
            CompletionQueue q = sameProcess.createCompletionQueue(8);
            QueuePair p = sameProcess.connect(1, q, 4, Duration.ofSeconds(10));
            RegisteredMemory buf = sameProcess.allocate(4096);
            wrs.addRead(1, buf.address(), 8, buf.lkey(), registered.address(), registered.rkey(), WorkRequests.SIGNALED);
            p.post(wrs);
            assertEquals(1, q.poll(out));
            assertEquals(CompletionStatus.SUCCESS, out.status(0));
            assertEquals(17L, buf.segment().get(LONG, 0));

            wrs.clear();
            wrs.addRead(2, local.address(), 8, local.lkey(), registered.address(), registered.rkey(), WorkRequests.SIGNALED);
            qp.post(wrs);
            assertEquals(1, poll());
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, out.status(0), "another process cannot map it");
            registered.close();
        }
    }

    @Test
    void shouldRefuseANodeTheDirectoryAlreadyHas() {
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> first.open(1));
        assertTrue(e.getMessage().contains("node 1 already has files in " + dir.toAbsolutePath()), e.getMessage());
        assertThrows(BadArgumentException.class, () -> first.open(0), "open on this fabric");
        assertThrows(BadArgumentException.class, () -> first.open(65536));
        assertTrue(e.getMessage().contains("is open in process " + ProcessHandle.current().pid()), e.getMessage());
    }

    @Test
    void shouldReachTheNewIncarnationOnlyAfterAResetWhenANodeOpensAgain() throws java.io.IOException {
        long former = b.incarnation();
        assertNotEquals(0, a.incarnation());
        assertNotEquals(0, former);
        assertNotEquals(a.incarnation(), former);
        assertEquals(former, qp.peerIncarnation());
        QueuePair untouched = a.connect(1, cq, 16, Duration.ofSeconds(10));
        remote.segment().set(LONG, 0, 17L);
        assertEquals(CompletionStatus.SUCCESS, read(qp, 1, region));
        assertEquals(17L, local.segment().get(LONG, 0));

        second.close();
        assertEquals(CompletionStatus.RETRY_EXCEEDED, read(qp, 2, region));
        qp.reset();
        assertEquals(former, qp.peerIncarnation(), "no other incarnation opened yet");
        assertEquals(CompletionStatus.RETRY_EXCEEDED, read(qp, 3, region));

        try (ShmFabric third = ShmFabric.open(dir)) {
            FabricNode again = third.open(1);
            assertNotEquals(former, again.incarnation());
            assertNotEquals(0, again.incarnation());
            RegisteredMemory fresh = again.allocate(4096);
            fresh.segment().set(LONG, 0, 99L);
            again.publish(fresh);
            RemoteRegion freshRegion = first.publishedRegions(1).get(0);
            assertEquals(fresh.rkey(), freshRegion.rkey());
            assertEquals(region.rkey(), freshRegion.rkey(), "the new incarnation hands out the same keys");

            assertEquals(CompletionStatus.RETRY_EXCEEDED, read(untouched, 4, freshRegion),
                    "a queue pair still on the former incarnation reaches nothing, not even the new files");
            assertEquals(former, untouched.peerIncarnation());
            assertTrue(qp.inError());
            qp.reset();
            assertEquals(again.incarnation(), qp.peerIncarnation());
            local.segment().set(LONG, 0, 0L);
            assertEquals(CompletionStatus.SUCCESS, read(qp, 5, freshRegion));
            assertEquals(99L, local.segment().get(LONG, 0));
            untouched.reset();
            assertEquals(again.incarnation(), untouched.peerIncarnation());
            assertEquals(again.incarnation(), a.connect(1, cq, 16, Duration.ofSeconds(10)).peerIncarnation(),
                    "a new queue pair reaches the new incarnation");
            try (var entries = Files.list(dir)) {
                assertEquals(List.of(), entries.map(p -> p.getFileName().toString()).filter(n -> n.contains("former"))
                        .toList(), "the former incarnation's directory is removed");
            }
        }
    }

    /** Posts one signalled 8-byte READ of {@code from}'s first word into {@code local} and returns its status. */
    private CompletionStatus read(QueuePair on, long wrId, RemoteRegion from) {
        wrs.clear();
        wrs.addRead(wrId, local.address(), 8, local.lkey(), from.address(), from.rkey(), WorkRequests.SIGNALED);
        on.post(wrs);
        assertEquals(1, poll());
        assertEquals(wrId, out.wrId(0));
        return out.status(0);
    }

    @Test
    void shouldRefuseBadArgumentsBeforeAnythingChanges() {
        assertThrows(BadArgumentException.class, () -> a.connect(7, cq, 4, Duration.ofSeconds(1)), "a node that never opened");
        assertThrows(BadArgumentException.class, () -> a.connect(1, cq, 0, Duration.ofSeconds(1)));
        assertThrows(BadArgumentException.class, () -> a.connect(1, b.createCompletionQueue(4), 4, Duration.ofSeconds(1)));
        assertThrows(BadArgumentException.class, () -> a.allocate(0));
        assertThrows(BadArgumentException.class, () -> a.createCompletionQueue(0));
        assertThrows(BadArgumentException.class, () -> a.publish(remote), "another node's registration");
        assertThrows(NullPointerException.class, () -> ShmFabric.open(null));
        WorkRequests tooMany = new WorkRequests(17);
        for (int i = 0; i < 17; i++) {
            tooMany.addRead(i, local.address(), 8, local.lkey(), region.address(), region.rkey(), WorkRequests.SIGNALED);
        }
        assertThrows(BadArgumentException.class, () -> qp.post(tooMany));
        assertEquals(0, poll(), "nothing of a refused post executed");
    }

    @Test
    void shouldDeliverAMessageIntoTheReceiveOfThePeerProcess() {
        CompletionQueue recv = b.createCompletionQueue(8);
        io.remus.core.fabric.ReceiveQueue rq = b.createReceiveQueue(recv, 4);
        assertTrue(Files.isRegularFile(dir.resolve("node-1").resolve("receive")));
        wrs.addSend(1, local.address(), 8, local.lkey(), WorkRequests.SIGNALED);
        qp.post(wrs);
        assertEquals(1, poll());
        assertEquals(CompletionStatus.RECEIVER_NOT_READY, out.status(0), "connected before the receive queue existed");

        QueuePair after = a.connect(1, cq, 4, Duration.ofSeconds(10));
        io.remus.core.fabric.ReceiveRequests r = new io.remus.core.fabric.ReceiveRequests(1);
        r.add(77, remote.address() + 1024, 64, remote.lkey());
        rq.post(r);
        assertEquals(1, rq.outstanding());
        local.segment().set(LONG, 0, 4242L);
        wrs.clear();
        wrs.addSend(2, local.address(), 8, local.lkey(), WorkRequests.SIGNALED);
        after.post(wrs);
        assertEquals(1, poll());
        assertEquals(CompletionStatus.SUCCESS, out.status(0));
        Completions received = new Completions(2);
        assertEquals(1, recv.poll(received));
        assertEquals(77, received.wrId(0));
        assertEquals(Opcode.RECEIVE, received.opcode(0));
        assertEquals(8, received.byteLength(0));
        assertEquals(4242L, remote.segment().get(LONG, 1024));
        assertEquals(0, rq.outstanding());
        assertThrows(ResourceInUseException.class, recv::close, "a peer's queue pair delivers into it");
    }

    @Test
    void shouldRemoveEveryFileOfTheClusterAndNothingElse() throws Exception {
        Path foreign = Files.writeString(dir.resolve("notes.txt"), "not the fabric's");
        first.close();
        second.close();
        assertTrue(ShmFabric.removeFiles(dir) >= 5);
        assertEquals(List.of(foreign), Files.list(dir).toList(), "a file of another name stays, and so does the directory");
        Files.delete(foreign);
        assertEquals(0, ShmFabric.removeFiles(dir.resolve("missing")));
    }

    @Test
    void shouldGiveEachRegistrationItsOwnKeys() {
        RegisteredMemory more = b.allocate(8192);
        assertNotEquals(remote.rkey(), more.rkey());
        assertNotEquals(more.lkey(), more.rkey());
        assertEquals(8192, more.length());
        assertEquals(0, more.address() % 4096, "page aligned");
        assertEquals(0L, more.segment().get(LONG, 8184), "zeroed");
    }
}
