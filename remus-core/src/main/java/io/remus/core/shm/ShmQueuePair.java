package io.remus.core.shm;

import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.Opcode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.WorkRequests;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Arrays;

/**
 * A queue pair of the shared-memory fabric: {@link #post} executes each work request in posting
 * order, on the posting thread, directly on the target's memory as this process maps it, and
 * reports it only through the completion queue (a completion for each signalled request and for
 * each failure). Transfers copy aligned 8-byte pieces, each loaded (acquire) and stored (release)
 * whole; the transfer as a whole is not atomic. Atomics are the processor's compare-and-exchange
 * and fetch-and-add on the mapped word. A {@code SEND} or {@code WRITE_WITH_IMMEDIATE} takes the
 * oldest receive of the peer's receive queue as it was when this queue pair connected (none when the
 * peer had none yet), waiting up to {@link #RNR_NANOS} for one to be posted, under that queue's lock
 * (waited for at most the connect timeout, then {@code RETRY_EXCEEDED}). One owning thread.
 */
final class ShmQueuePair implements QueuePair {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    /**
     * How long a message waits for a posted receive before it fails with {@code RECEIVER_NOT_READY}: verbs'
     * first try and 6 receiver-not-ready retries at its 0.64 ms timer.
     */
    static final long RNR_NANOS = 7 * 640_000L;

    private final ShmNode local;
    /** The incarnation of the peer this queue pair reaches: the one it connected to, or reached at its last reset. */
    private ShmPeer target;
    /** The plane this queue pair connected on: its WRITEs and atomics count in the target's slot of it. */
    private final int plane;
    private final ShmCompletionQueue cq;
    private final int depth;
    /** The peer's receive queue as it was when this queue pair connected, or null. */
    private ShmReceiveQueue receiver;
    private final long lockNanos;
    private ShmTarget[] known = new ShmTarget[0];
    private boolean error;
    private volatile boolean closed;

    ShmQueuePair(ShmNode local, ShmPeer target, int plane, ShmCompletionQueue cq, int depth, Duration waitTimeout) {
        if (depth <= 0) {
            throw new BadArgumentException("send queue depth must be positive, got " + depth);
        }
        this.local = local;
        this.target = target;
        this.plane = plane;
        this.cq = cq;
        this.depth = depth;
        this.lockNanos = Timeouts.isForever(waitTimeout) ? Long.MAX_VALUE / 4 : waitTimeout.toNanos();
        this.receiver = target.receiveQueue();
        if (receiver != null) {
            receiver.connected();
        }
    }

    @Override
    public int peerNodeId() {
        return target.nodeId();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Read from the peer's node file when this queue pair connected, and again at a {@link #reset()} after
     * that node file was closed (its process closed the node, or a restarted process took it over).
     */
    @Override
    public long peerIncarnation() {
        return target.incarnation();
    }

    @Override
    public int sendQueueDepth() {
        return depth;
    }

    @Override
    public void post(WorkRequests requests) {
        int n = requests.size();
        WorkRequests.requirePostable(target.nodeId(), closed, 0, n, depth);
        for (int k = 0; k < n; k++) {
            CompletionStatus result = error ? CompletionStatus.FLUSHED : execute(requests, k);
            if (result != CompletionStatus.SUCCESS) {
                error = true;
            }
            if (result != CompletionStatus.SUCCESS || (requests.flags(k) & WorkRequests.SIGNALED) != 0) {
                cq.add(requests.wrId(k), requests.opcode(k), result);
            }
        }
    }

    private CompletionStatus execute(WorkRequests r, int k) {
        Opcode op = r.opcode(k);
        int len = r.length(k);
        if (!target.answering()) {
            return CompletionStatus.RETRY_EXCEEDED;
        }
        ShmRegion mine = local.findByLkey(r.lkey(k), r.localAddress(k), len);
        if (mine == null) {
            return CompletionStatus.LOCAL_PROTECTION_ERROR;
        }
        if (op == Opcode.SEND || op == Opcode.WRITE_WITH_IMMEDIATE) {
            if (receiver == null) {
                return CompletionStatus.RECEIVER_NOT_READY;
            }
            try {
                return op == Opcode.SEND
                        ? receiver.send(target, mine.segment(), r.localAddress(k) - mine.address(), len, lockNanos, RNR_NANOS)
                        : receiver.writeWithImmediate(this, r, k, mine, lockNanos, RNR_NANOS);
            } catch (IllegalStateException unmappedMeanwhile) {
                return CompletionStatus.LOCAL_PROTECTION_ERROR;
            }
        }
        return op == Opcode.READ ? apply(r, k, mine) : write(r, k, mine);
    }

    /** Executes READ, WRITE or atomic {@code k} against the target's memory, its local buffer in {@code mine}. */
    private CompletionStatus apply(WorkRequests r, int k, ShmRegion mine) {
        Opcode op = r.opcode(k);
        int len = r.length(k);
        long remote = r.remoteAddress(k);
        ShmTarget theirs = find(r.rkey(k));
        if (theirs == null || !theirs.contains(remote, len) || !theirs.registered()) {
            return CompletionStatus.REMOTE_ACCESS_ERROR;
        }
        MemorySegment localBytes = mine.segment();
        long localOffset = r.localAddress(k) - mine.address();
        MemorySegment remoteBytes = theirs.data();
        long remoteOffset = remote - theirs.address();
        try {
            switch (op) {
                case READ -> copy(remoteBytes, remoteOffset, localBytes, localOffset, len);
                case WRITE -> copy(localBytes, localOffset, remoteBytes, remoteOffset, len);
                case COMPARE_AND_SWAP, FETCH_AND_ADD -> {
                    if ((remote & 7) != 0 || len != 8) {
                        return CompletionStatus.REMOTE_INVALID_REQUEST;
                    }
                    long old = op == Opcode.FETCH_AND_ADD
                            ? (long) WORD.getAndAdd(remoteBytes, remoteOffset, r.compareOrAdd(k))
                            : (long) WORD.compareAndExchange(remoteBytes, remoteOffset, r.compareOrAdd(k), r.swap(k));
                    localBytes.set(ValueLayout.JAVA_LONG_UNALIGNED, localOffset, old);
                }
                default -> {
                    return CompletionStatus.REMOTE_INVALID_REQUEST;
                }
            }
        } catch (IllegalStateException unmappedMeanwhile) {
            return CompletionStatus.REMOTE_ACCESS_ERROR;
        }
        return CompletionStatus.SUCCESS;
    }

    /**
     * Request {@code k}, a WRITE, an atomic or the WRITE of a WRITE_WITH_IMMEDIATE, whose local buffer lies in
     * {@code mine}, inside the target's write guard ({@link ShmPeer#beginWrite}): refused with
     * {@code REMOTE_ACCESS_ERROR} while the target revokes this node's writes.
     */
    CompletionStatus write(WorkRequests r, int k, ShmRegion mine) {
        int writer = local.nodeId();
        if (!target.beginWrite(writer, plane)) {
            return CompletionStatus.REMOTE_ACCESS_ERROR;
        }
        try {
            return r.opcode(k) == Opcode.WRITE_WITH_IMMEDIATE ? writeAllowed(r, k, mine) : apply(r, k, mine);
        } finally {
            target.endWrite(writer, plane);
        }
    }

    private CompletionStatus writeAllowed(WorkRequests r, int k, ShmRegion mine) {
        long remote = r.remoteAddress(k);
        int len = r.length(k);
        ShmTarget theirs = find(r.rkey(k));
        if (theirs == null || !theirs.contains(remote, len) || !theirs.registered()) {
            return CompletionStatus.REMOTE_ACCESS_ERROR;
        }
        copy(mine.segment(), r.localAddress(k) - mine.address(), theirs.data(), remote - theirs.address(), len);
        return CompletionStatus.SUCCESS;
    }

    private ShmTarget find(int rkey) {
        for (ShmTarget t : known) {
            if (t.rkey() == rkey) {
                return t;
            }
        }
        ShmTarget t = target.target(rkey);
        if (t != null) {
            ShmTarget[] more = Arrays.copyOf(known, known.length + 1);
            more[known.length] = t;
            known = more;
        }
        return t;
    }

    /** Copies in aligned 8-byte pieces, each loaded and stored whole, when both ends are 8-byte aligned. */
    static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, int length) {
        if (((src.address() + srcOffset) & 7) != 0 || ((dst.address() + dstOffset) & 7) != 0) {
            MemorySegment.copy(src, srcOffset, dst, dstOffset, length);
            return;
        }
        int done = 0;
        for (; done + 8 <= length; done += 8) {
            WORD.setRelease(dst, dstOffset + done, (long) WORD.getAcquire(src, srcOffset + done));
        }
        if (done < length) {
            MemorySegment.copy(src, srcOffset + done, dst, dstOffset + done, length - done);
        }
    }

    @Override
    public boolean inError() {
        return error;
    }

    /**
     * Leaves the error state. When the peer's node file this queue pair maps is closed, the queue pair reaches
     * the node's directory again: if another incarnation opened there, it targets that one from then on (its
     * regions, its receive queue), and {@link #peerIncarnation()} names it.
     */
    @Override
    public void reset() {
        if (!target.answering()) {
            ShmPeer now = local.reach(target.nodeId(), target);
            if (now != target) {
                target = now;
                known = new ShmTarget[0];
                receiver = now.receiveQueue();
                if (receiver != null) {
                    receiver.connected();
                }
            }
        }
        error = false;
    }

    @Override
    public void close() {
        closed = true;
    }

    boolean isClosed() {
        return closed;
    }
}
