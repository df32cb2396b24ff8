package io.remus.core.shm;

import io.remus.core.error.CompletionStatus;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Opcode;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.ReceiveRequests;

import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * A node's receive queue in its file {@code node-N/receive}, which the node and every sender map:
 * a ring of posted receives and a ring of the receive completions that senders produced, guarded by
 * a lock word that the node and the senders take with compare-and-swap. The node posts and drains
 * through its own mapping ({@link ShmNode#createReceiveQueue}); a sender's queue pair executes its
 * {@code SEND} or {@code WRITE_WITH_IMMEDIATE} on the oldest posted receive through its mapping
 * ({@link #mapForSender}). A receive holds its place from its post until its completion is drained.
 *
 * <pre>
 *  0 magic  8 lock  16 depth  24 posted head  32 posted tail  40 done head  48 done tail
 * 56 connections (queue pairs connected to the node since the file exists)
 * 64 posted ring, depth x 32 bytes: wr_id, address, length, rkey of the covering registration
 *    done ring, depth x 40 bytes: wr_id, opcode ordinal, status ordinal, byte length, immediate
 * </pre>
 * Heads and tails count up without end; an entry's slot is its count modulo the depth.
 */
final class ShmReceiveQueue implements ReceiveQueue {
    static final String FILE = "receive";
    static final long MAGIC_VALUE = 0x52454D5553_524356L;
    private static final long LOCK = 8;
    private static final long DEPTH = 16;
    private static final long POSTED_HEAD = 24;
    private static final long POSTED_TAIL = 32;
    private static final long DONE_HEAD = 40;
    private static final long DONE_TAIL = 48;
    private static final long CONNECTIONS = 56;
    private static final long RINGS = 64;
    private static final long POSTED_BYTES = 32;
    private static final long DONE_BYTES = 40;
    /** How long the node waits for a lock that a sender holds before it gives up. */
    private static final long OWNER_LOCK_NANOS = Duration.ofSeconds(10).toNanos();
    private static final Opcode[] OPCODES = Opcode.values();
    private static final CompletionStatus[] STATUSES = CompletionStatus.values();

    /** The most receives a receive queue holds. */
    static final int MAX_DEPTH = 1 << 20;

    private final ShmNode node;
    private final MemorySegment file;
    private final int depth;
    private final long doneRing;

    private ShmReceiveQueue(ShmNode node, MemorySegment file) {
        this.node = node;
        this.file = file;
        this.depth = (int) (long) ShmFiles.WORD.getVolatile(file, DEPTH);
        this.doneRing = RINGS + depth * POSTED_BYTES;
    }

    /** {@return the file's length for {@code depth} receives} */
    static long fileBytes(int depth) {
        return RINGS + depth * (POSTED_BYTES + DONE_BYTES);
    }

    /** Fills a new receive file of {@code depth} receives and returns the owner's queue over it. */
    static ShmReceiveQueue create(ShmNode node, MemorySegment file, int depth) {
        ShmFiles.WORD.setVolatile(file, DEPTH, (long) depth);
        ShmFiles.WORD.setVolatile(file, ShmFiles.MAGIC, MAGIC_VALUE);
        return new ShmReceiveQueue(node, file);
    }

    /** {@return a sender's view of a receive file it mapped, or null when the file is not one} */
    static ShmReceiveQueue mapForSender(MemorySegment file) {
        if (file.byteSize() < RINGS || (long) ShmFiles.WORD.getVolatile(file, ShmFiles.MAGIC) != MAGIC_VALUE) {
            return null;
        }
        ShmReceiveQueue q = new ShmReceiveQueue(null, file);
        return file.byteSize() >= fileBytes(q.depth) ? q : null;
    }

    @Override
    public void post(ReceiveRequests requests) {
        int n = requests.size();
        for (int k = 0; k < n; k++) {
            if (node.findByLkey(requests.lkey(k), requests.address(k), requests.length(k)) == null) {
                throw requests.notCovered(k, node.nodeId());
            }
        }
        lockOrThrow();
        try {
            long tail = word(POSTED_TAIL);
            long outstanding = tail - word(POSTED_HEAD) + word(DONE_TAIL) - word(DONE_HEAD);
            ReceiveRequests.requireRoom(node.nodeId(), outstanding, n, depth);
            for (int k = 0; k < n; k++) {
                long at = RINGS + ((tail + k) % depth) * POSTED_BYTES;
                set(at, requests.wrId(k));
                set(at + 8, requests.address(k));
                set(at + 16, requests.length(k));
                set(at + 24, node.findByLkey(requests.lkey(k), requests.address(k), requests.length(k)).rkey());
            }
            set(POSTED_TAIL, tail + n);
        } finally {
            unlock();
        }
    }

    @Override
    public int depth() {
        return depth;
    }

    @Override
    public int outstanding() {
        lockOrThrow();
        try {
            return (int) (word(POSTED_TAIL) - word(POSTED_HEAD) + word(DONE_TAIL) - word(DONE_HEAD));
        } finally {
            unlock();
        }
    }

    /** Counts a queue pair connected to the node (its completion queue then refuses to close). */
    void connected() {
        ShmFiles.WORD.getAndAdd(file, CONNECTIONS, 1L);
    }

    /** {@return the queue pairs connected to the node since its receive queue exists} */
    long connections() {
        return (long) ShmFiles.WORD.getVolatile(file, CONNECTIONS);
    }

    /**
     * Moves receive completions into {@code out} from index {@code from}; the owner's side.
     *
     * @return the index after the last one stored
     */
    int drain(Completions out, int from) {
        if (word(DONE_HEAD) == (long) ShmFiles.WORD.getVolatile(file, DONE_TAIL)) {
            return from;
        }
        lockOrThrow();
        try {
            int n = from;
            long head = word(DONE_HEAD);
            long tail = word(DONE_TAIL);
            while (head < tail && n < out.capacity()) {
                long at = doneRing + (head % depth) * DONE_BYTES;
                Opcode op = OPCODES[(int) word(at + 8)];
                CompletionStatus status = STATUSES[(int) word(at + 16)];
                out.set(n++, word(at), op, status, (int) word(at + 24), (int) word(at + 32),
                        op == Opcode.RECEIVE_WITH_IMMEDIATE && status == CompletionStatus.SUCCESS);
                head++;
            }
            set(DONE_HEAD, head);
            return n;
        } finally {
            unlock();
        }
    }

    /**
     * A sender's SEND of {@code length} bytes at {@code offset} of {@code source} into the oldest posted
     * receive, whose buffer it reaches through {@code peer}.
     *
     * @param lockNanos how long to wait for the lock
     * @param rnrNanos  how long to wait for a posted receive (the receiver-not-ready retries)
     * @return the sender's completion status
     */
    CompletionStatus send(ShmPeer peer, MemorySegment source, long offset, int length, long lockNanos, long rnrNanos) {
        long at = takeOldest(lockNanos, rnrNanos);
        if (at < 0) {
            return at == -1 ? CompletionStatus.RECEIVER_NOT_READY : CompletionStatus.RETRY_EXCEEDED;
        }
        try {
            long wrId = word(at);
            long address = word(at + 8);
            long capacity = word(at + 16);
            int rkey = (int) word(at + 24);
            consume();
            if (length > capacity) {
                complete(wrId, Opcode.RECEIVE, CompletionStatus.LOCAL_LENGTH_ERROR, 0, 0);
                return CompletionStatus.REMOTE_INVALID_REQUEST;
            }
            ShmTarget buffer = peer.target(rkey);
            if (buffer == null || !buffer.contains(address, length) || !buffer.registered()) {
                complete(wrId, Opcode.RECEIVE, CompletionStatus.LOCAL_PROTECTION_ERROR, 0, 0);
                return CompletionStatus.REMOTE_OPERATION_ERROR;
            }
            MemorySegment.copy(source, offset, buffer.data(), address - buffer.address(), length);
            complete(wrId, Opcode.RECEIVE, CompletionStatus.SUCCESS, length, 0);
            return CompletionStatus.SUCCESS;
        } finally {
            unlock();
        }
    }

    /**
     * A sender's WRITE_WITH_IMMEDIATE, request {@code k} of {@code requests} on {@code qp}: runs its WRITE
     * while it holds the oldest posted receive, and consumes that receive only when the WRITE succeeded.
     *
     * @return the sender's completion status
     */
    CompletionStatus writeWithImmediate(ShmQueuePair qp, io.remus.core.fabric.WorkRequests requests, int k, ShmRegion mine,
                                        long lockNanos, long rnrNanos) {
        long at = takeOldest(lockNanos, rnrNanos);
        if (at < 0) {
            return at == -1 ? CompletionStatus.RECEIVER_NOT_READY : CompletionStatus.RETRY_EXCEEDED;
        }
        try {
            CompletionStatus written = qp.write(requests, k, mine);
            if (written != CompletionStatus.SUCCESS) {
                return written;
            }
            long wrId = word(at);
            consume();
            complete(wrId, Opcode.RECEIVE_WITH_IMMEDIATE, CompletionStatus.SUCCESS, requests.length(k), requests.immediate(k));
            return CompletionStatus.SUCCESS;
        } finally {
            unlock();
        }
    }

    /**
     * Takes the lock with the oldest posted receive: waits up to {@code rnrNanos} for one to be posted.
     *
     * @return the receive's ring offset, holding the lock; -1 when none was posted in time, -2 when the
     *         lock stayed taken for {@code lockNanos} (neither holds the lock)
     */
    private long takeOldest(long lockNanos, long rnrNanos) {
        long deadline = System.nanoTime() + rnrNanos;
        while (true) {
            if (!lock(lockNanos)) {
                return -2;
            }
            long head = word(POSTED_HEAD);
            if (head < word(POSTED_TAIL)) {
                return RINGS + (head % depth) * POSTED_BYTES;
            }
            unlock();
            if (System.nanoTime() - deadline >= 0) {
                return -1;
            }
            Thread.onSpinWait();
        }
    }

    private void consume() {
        set(POSTED_HEAD, word(POSTED_HEAD) + 1);
    }

    private void complete(long wrId, Opcode op, CompletionStatus status, int length, int immediate) {
        long tail = word(DONE_TAIL);
        long at = doneRing + (tail % depth) * DONE_BYTES;
        set(at, wrId);
        set(at + 8, op.ordinal());
        set(at + 16, status.ordinal());
        set(at + 24, length);
        set(at + 32, immediate);
        ShmFiles.WORD.setVolatile(file, DONE_TAIL, tail + 1);
    }

    private void lockOrThrow() {
        if (!lock(OWNER_LOCK_NANOS)) {
            throw new RemoteTimeoutException("the receive queue of node " + node.nodeId() + " stayed locked for "
                    + Duration.ofNanos(OWNER_LOCK_NANOS) + " (a sender's process died holding it?)");
        }
    }

    private boolean lock(long nanos) {
        long deadline = System.nanoTime() + nanos;
        int spins = 0;
        while (!ShmFiles.WORD.compareAndSet(file, LOCK, 0L, 1L)) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            if ((++spins & 0x3F) == 0) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
        return true;
    }

    private void unlock() {
        ShmFiles.WORD.setVolatile(file, LOCK, 0L);
    }

    private long word(long offset) {
        return (long) ShmFiles.WORD.get(file, offset);
    }

    private void set(long offset, long value) {
        ShmFiles.WORD.set(file, offset, value);
    }
}
