package io.remus.core.verbs;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Opcode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.WorkRequests;
import io.remus.verbs.SendBatch;
import io.remus.verbs.VerbsException;

import java.time.Duration;

/**
 * A reliable connected queue pair over verbs: {@link #post(WorkRequests)} translates the list into
 * the queue pair's preallocated {@link SendBatch} and posts it with one doorbell, allocating
 * nothing. A ring of the posted requests (wr_id, opcode) is retired by completions, which bounds
 * the send queue and names the opcode of error completions (verbs leaves it undefined there).
 *
 * <p>Requests the device must not see are refused here with a completion the fabric makes: a
 * local range no registration of this node covers ({@code LOCAL_PROTECTION_ERROR}), a misaligned
 * atomic ({@code REMOTE_INVALID_REQUEST}); the rest of that list, and everything posted while in
 * the error state, completes {@code FLUSHED}. {@link #reset()} replaces a queue pair the device put
 * in the error state by a new one (verbs queue pairs do not leave it), reconnected to the peer: to a peer
 * of another process, one attempt bounded by the wait timeout, or none while that peer's back-off lasts
 * ({@link PeerReachability}); a failed reset leaves this queue pair in the error state, without a device
 * queue pair, and a later reset tries again.
 *
 * <p>{@link WorkRequests#FENCE} is applied here, in software, not passed to the device as
 * {@code IBV_SEND_FENCE} (Soft-RoCE stalls the queue pair for good on it; see the package overview):
 * before a fenced request is handed to the device, the requests before it are posted and this
 * queue pair's READs and atomics still in flight are awaited, polling the completion queue (its
 * completions are kept for the owner's next poll) for at most the wait timeout it was connected
 * with (the compute thread's operation timeout). The
 * request just before a fenced one in the same list is signalled for that, and its successful
 * completion is not delivered unless its caller asked for it. The
 * registration that covers a request's local range is remembered from the previous request, so a
 * thread that posts from one buffer finds it without searching the node's registrations. One owning
 * thread.
 */
final class VerbsQueuePair implements QueuePair {
    private final VerbsNode node;
    private final int peer;
    /** The plane every connection of this queue pair is made on (its resets keep it). */
    private final int plane;
    private final VerbsCompletionQueue cq;
    private final int depth;
    private final Duration waitTimeout;
    private final long fenceWaitNanos;
    private final long[] ringId;
    private final Opcode[] ringOp;
    private final boolean[] ringSignaled;
    private final boolean[] ringInternal;
    private int readsAndAtomicsInFlight;
    private long head;
    private long tail;
    private PeerConnection connection;
    private VerbsMemory lastRegion;
    private SendBatch batch;
    private volatile int queuePairNumber;
    /** The incarnation of the peer the current connection reached. */
    private long peerIncarnation;
    private boolean error;
    private boolean deviceError;
    private boolean closed;

    VerbsQueuePair(VerbsNode node, int peer, int plane, VerbsCompletionQueue cq, int depth, Duration fenceWait) {
        this.node = node;
        this.peer = peer;
        this.plane = plane;
        this.cq = cq;
        this.depth = depth;
        this.waitTimeout = fenceWait;
        this.fenceWaitNanos = fenceWait.toNanos();
        this.ringId = new long[depth];
        this.ringOp = new Opcode[depth];
        this.ringSignaled = new boolean[depth];
        this.ringInternal = new boolean[depth];
        connect();
        cq.attach(this);
    }

    private void connect() {
        PeerConnection c = node.link(peer, plane, cq, depth, waitTimeout);
        try {
            batch = c.queuePair().sendBatch(depth);
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
        connection = c;
        peerIncarnation = c.peerIncarnation();
        queuePairNumber = c.queuePair().queuePairNumber();
    }

    int queuePairNumber() {
        return queuePairNumber;
    }

    @Override
    public int peerNodeId() {
        return peer;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The incarnation that the connection made by the constructor, or by the last {@link #reset()} that
     * replaced it, reached: named by the peer's rdma_cm listener, its TCP bootstrap reply, or the node itself
     * when it lives in this process.
     */
    @Override
    public long peerIncarnation() {
        return peerIncarnation;
    }

    @Override
    public int sendQueueDepth() {
        return depth;
    }

    @Override
    public void post(WorkRequests requests) {
        int n = requests.size();
        WorkRequests.requirePostable(peer, closed, tail - head, n, depth);
        if (error) {
            refuse(requests, 0, CompletionStatus.FLUSHED);
            return;
        }
        if (n > 0 && (requests.flags(0) & WorkRequests.FENCE) != 0 && readsAndAtomicsInFlight > 0
                && !ringSignaled[(int) ((tail - 1) % depth)]) {
            throw new BadArgumentException("a fenced request to node " + peer + " follows unsignalled READs or atomics"
                    + " whose completion would never be seen: signal the last request of the earlier post");
        }
        SendBatch b = batch;
        long firstTail = tail;
        try {
            for (int k = 0; k < n; k++) {
                Opcode op = requests.opcode(k);
                long local = requests.localAddress(k);
                int length = requests.length(k);
                VerbsMemory m = lastRegion;
                if (m == null || m.lkey() != requests.lkey(k) || !m.contains(local, length) || m.isClosed()) {
                    m = node.findLocal(requests.lkey(k), local, length);
                    lastRegion = m;
                }
                boolean atomic = op == Opcode.COMPARE_AND_SWAP || op == Opcode.FETCH_AND_ADD;
                if (m == null || (atomic && (requests.remoteAddress(k) & 7) != 0)) {
                    postDevice(b);
                    error = true;
                    cq.addMade(requests.wrId(k), op,
                            m == null ? CompletionStatus.LOCAL_PROTECTION_ERROR : CompletionStatus.REMOTE_INVALID_REQUEST);
                    refuse(requests, k + 1, CompletionStatus.FLUSHED);
                    return;
                }
                int flags = requests.flags(k);
                if ((flags & WorkRequests.FENCE) != 0 && readsAndAtomicsInFlight > 0) {
                    if (!awaitReadsAndAtomics(b)) {
                        refuse(requests, k, CompletionStatus.FLUSHED);
                        return;
                    }
                    firstTail = tail;
                }
                boolean asked = (flags & WorkRequests.SIGNALED) != 0;
                boolean signaled = asked || (k + 1 < n && (requests.flags(k + 1) & WorkRequests.FENCE) != 0);
                add(b, requests, k, op, m, local - m.address(), length, signaled);
                int slot = (int) (tail % depth);
                ringId[slot] = requests.wrId(k);
                ringOp[slot] = op;
                ringSignaled[slot] = signaled;
                ringInternal[slot] = !asked;
                if (readOrAtomic(op)) {
                    readsAndAtomicsInFlight++;
                }
                tail++;
            }
        } catch (VerbsException e) {
            b.clear();
            tail = firstTail;
            throw new BadArgumentException("work request rejected by the verbs API: " + e.getMessage());
        }
        postDevice(b);
    }

    private static void add(SendBatch b, WorkRequests r, int k, Opcode op, VerbsMemory m, long offset, int length,
                            boolean signaled) {
        long id = r.wrId(k);
        switch (op) {
            case READ -> b.read(id, m.region(), offset, length, r.remoteAddress(k), r.rkey(k), signaled);
            case WRITE -> b.write(id, m.region(), offset, length, r.remoteAddress(k), r.rkey(k), signaled);
            case COMPARE_AND_SWAP -> b.compareAndSwap(id, m.region(), offset, r.remoteAddress(k), r.rkey(k),
                    r.compareOrAdd(k), r.swap(k), signaled);
            case FETCH_AND_ADD -> b.fetchAndAdd(id, m.region(), offset, r.remoteAddress(k), r.rkey(k),
                    r.compareOrAdd(k), signaled);
            case SEND -> b.send(id, m.region(), offset, length, signaled);
            case WRITE_WITH_IMMEDIATE -> b.writeWithImmediate(id, m.region(), offset, length, r.remoteAddress(k),
                    r.rkey(k), r.immediate(k), signaled);
            default -> throw new BadArgumentException("opcode " + op + " cannot be posted; it only names receive completions");
        }
    }

    private static boolean readOrAtomic(Opcode op) {
        return op == Opcode.READ || op == Opcode.COMPARE_AND_SWAP || op == Opcode.FETCH_AND_ADD;
    }

    /** {@return whether a request with {@code wrId} is posted here and not yet retired} */
    boolean pending(long wrId) {
        for (long s = head; s < tail; s++) {
            if (ringId[(int) (s % depth)] == wrId) {
                return true;
            }
        }
        return false;
    }

    private boolean awaitReadsAndAtomics(SendBatch b) {
        postDevice(b);
        long deadline = System.nanoTime() + fenceWaitNanos;
        int idle = 0;
        while (readsAndAtomicsInFlight > 0 && !error) {
            if (cq.pollDevice() > 0) {
                continue;
            }
            if ((++idle & 0xFF) != 0) {
                Thread.onSpinWait();
            } else if (System.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("a fenced request to node " + peer + " waited "
                        + Duration.ofNanos(fenceWaitNanos) + " for " + readsAndAtomicsInFlight
                        + " earlier READs and atomics to complete");
            } else {
                Thread.yield();
            }
        }
        return !error;
    }

    private void postDevice(SendBatch b) {
        if (b.size() == 0) {
            return;
        }
        try {
            b.post();
        } catch (VerbsException e) {
            error = true;
            deviceError = true;
            throw new RemusException("posting to node " + peer + " failed; the queue pair is now in error", e);
        }
    }

    private void refuse(WorkRequests requests, int from, CompletionStatus status) {
        for (int k = from; k < requests.size(); k++) {
            cq.addMade(requests.wrId(k), requests.opcode(k), status);
        }
    }

    /**
     * Retires the requests up to the completed one (the unsignalled ones before it completed with it).
     *
     * @return the completed request's opcode, or null when the completion is one this queue pair
     * asked for itself (a request before a fenced one) and is not to be delivered
     */
    Opcode retire(long wrId, CompletionStatus status) {
        boolean success = status == CompletionStatus.SUCCESS;
        if (!success) {
            error = true;
            deviceError = true;
        }
        for (long s = head; s < tail; s++) {
            int slot = (int) (s % depth);
            if (ringId[slot] == wrId && (ringSignaled[slot] || !success)) {
                for (long r = head; r <= s; r++) {
                    if (readOrAtomic(ringOp[(int) (r % depth)])) {
                        readsAndAtomicsInFlight--;
                    }
                }
                head = s + 1;
                return success && ringInternal[slot] ? null : ringOp[slot];
            }
        }
        return Opcode.READ;
    }

    @Override
    public boolean inError() {
        return error;
    }

    @Override
    public void reset() {
        if (closed) {
            throw new BadArgumentException("queue pair to node " + peer + " is closed");
        }
        if (deviceError) {
            if (connection != null) {
                connection.close();
                connection = null;
                batch = null;
                queuePairNumber = -1;
            }
            connect();
        }
        head = 0;
        tail = 0;
        readsAndAtomicsInFlight = 0;
        error = false;
        deviceError = false;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        cq.detach(this);
        if (connection != null) {
            connection.close();
        }
        node.forget(this);
    }
}
