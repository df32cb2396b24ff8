package io.remus.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The two roles of an rdma_cm test: the listener offers a region with known values and waits
 * for the connector's "done" message; the connector WRITEs, READs, CASes and FAAs that region
 * across the connection, checks the results and sends "done". The listener then checks what the
 * connector changed, answers with a message of its own and disconnects once that message is
 * acknowledged. Each role throws AssertionError on a wrong value.
 *
 * <p>No message is sent before its receive is posted (the listener answers only after "done",
 * which the connector sends after posting its receive), and the connector closes only after the
 * listener disconnected: a side that closes while the other still waits for an acknowledgement
 * would leave that side retransmitting, on Soft-RoCE forever.
 */
final class CmPeer {
    static final Duration TIMEOUT = Duration.ofMinutes(5);
    static final long TIMEOUT_NANOS = TIMEOUT.toNanos();

    private CmPeer() {
    }

    /** Listens on {@code address:port}, serves one connector, checks its effects. */
    static void listen(String device, String address, int port) {
        try (Context context = Context.openForRdmaCm(device);
             ProtectionDomain pd = context.allocateProtectionDomain();
             CompletionQueue cq = context.createCompletionQueue(64);
             Arena arena = Arena.ofShared();
             WorkCompletions wc = new WorkCompletions(8)) {
            MemorySegment memory = arena.allocate(4096, 64);
            memory.set(JAVA_LONG, 8, 5L);
            memory.set(JAVA_LONG, 16, 10L);
            memory.set(JAVA_LONG, 24, 777L);
            try (MemoryRegion mr = pd.registerMemory(memory, Access.all());
                 CmListener listener = CmListener.listen(context, address, port)) {
                QueuePairBuilder builder = pd.queuePair().completionQueue(cq);
                try (CmConnection connection = listener.accept(builder, mr.toRemoteRegion(), TIMEOUT)) {
                    Set<Long> seen = new HashSet<>();
                    connection.queuePair().receiveBatch(1).receive(1, mr, 1024, 8).post();
                    check(connection.peerRegion().length() == 4096, "peer region length " + connection.peerRegion());
                    awaitAll(cq, wc, seen, 1L);
                    check(memory.get(JAVA_LONG, 1024) == 0xD0DEL, "done message " + memory.get(JAVA_LONG, 1024));
                    check(memory.get(JAVA_LONG, 0) == 0xABCDL, "written word " + memory.get(JAVA_LONG, 0));
                    check(memory.get(JAVA_LONG, 8) == 6L, "swapped word " + memory.get(JAVA_LONG, 8));
                    check(memory.get(JAVA_LONG, 16) == 13L, "added word " + memory.get(JAVA_LONG, 16));
                    connection.queuePair().sendBatch(1).send(2, mr, 24, 8, true).post();
                    awaitAll(cq, wc, seen, 2L);
                }
            }
        }
    }

    /** Connects to {@code address:port} (retrying until the timeout) and works on the listener's region. */
    static void connect(String device, String address, int port) throws InterruptedException {
        try (Context context = Context.openForRdmaCm(device);
             ProtectionDomain pd = context.allocateProtectionDomain();
             CompletionQueue cq = context.createCompletionQueue(64);
             Arena arena = Arena.ofShared();
             WorkCompletions wc = new WorkCompletions(8)) {
            MemorySegment memory = arena.allocate(4096, 64);
            try (MemoryRegion mr = pd.registerMemory(memory, Access.all())) {
                QueuePairBuilder builder = pd.queuePair().completionQueue(cq);
                try (CmConnection connection = CmConnector.connect(builder, address, port, mr.toRemoteRegion(), TIMEOUT)) {
                    ConnectedQueuePair qp = connection.queuePair();
                    RemoteRegion peer = connection.peerRegion();
                    qp.receiveBatch(1).receive(100, mr, 2048, 8).post();
                    Set<Long> seen = new HashSet<>();
                    memory.set(JAVA_LONG, 0, 0xABCDL);
                    memory.set(JAVA_LONG, 512, 0xD0DEL);
                    qp.sendBatch(4)
                            .write(1, mr, 0, 8, peer.addressAt(0), peer.remoteKey(), false)
                            .read(2, mr, 8, 8, peer.addressAt(24), peer.remoteKey(), false)
                            .compareAndSwap(3, mr, 16, peer.addressAt(8), peer.remoteKey(), 5L, 6L, false)
                            .fetchAndAdd(4, mr, 24, peer.addressAt(16), peer.remoteKey(), 3L, true)
                            .post();
                    awaitAll(cq, wc, seen, 4L);
                    check(memory.get(JAVA_LONG, 8) == 777L, "read word " + memory.get(JAVA_LONG, 8));
                    check(memory.get(JAVA_LONG, 16) == 5L, "CAS previous value " + memory.get(JAVA_LONG, 16));
                    check(memory.get(JAVA_LONG, 24) == 10L, "FAA previous value " + memory.get(JAVA_LONG, 24));
                    qp.sendBatch(1).send(5, mr, 512, 8, true).post();
                    awaitAll(cq, wc, seen, 5L, 100L);
                    check(memory.get(JAVA_LONG, 2048) == 777L, "listener's message " + memory.get(JAVA_LONG, 2048));
                    connection.awaitPeerDisconnected(TIMEOUT);
                }
            }
        }
    }

    private static void awaitAll(CompletionQueue cq, WorkCompletions wc, Set<Long> seen, long... ids) {
        while (!containsAll(seen, ids)) {
            int got = cq.pollUntilAny(wc, TIMEOUT_NANOS);
            for (int i = 0; i < got; i++) {
                wc.throwIfFailed(i);
                seen.add(wc.workRequestId(i));
            }
        }
    }

    private static boolean containsAll(Set<Long> seen, long... ids) {
        for (long id : ids) {
            if (!seen.contains(id)) {
                return false;
            }
        }
        return true;
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("unexpected " + what);
        }
    }
}
