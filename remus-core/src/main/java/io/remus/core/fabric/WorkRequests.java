package io.remus.core.fabric;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;

/**
 * A reusable list of work requests (one-sided, and the messaging operations {@link Opcode#SEND}
 * and {@link Opcode#WRITE_WITH_IMMEDIATE}) posted together with one
 * {@link QueuePair#post(WorkRequests)} (one doorbell, like a chained {@code ibv_send_wr} list).
 * Stored as parallel primitive arrays: filling and reading it allocates nothing.
 *
 * <p>Each entry carries a 64-bit {@code wrId} that comes back in its completion, the local buffer
 * (address, length, lkey), the remote target (address, rkey), atomic operands, and
 * {@link #SIGNALED} / {@link #FENCE} flags. Not thread-safe.
 */
public final class WorkRequests {
    /** Flag: produce a completion on success ({@code IBV_SEND_SIGNALED}). */
    public static final int SIGNALED = 1;
    /**
     * Flag: start only after earlier READs and atomics on the QP completed (the contract is in
     * {@link io.remus.core.ComputeThread}'s overview). On verbs the fabric applies it in software; the
     * request before a fenced one must be signalled when it is in an earlier post.
     */
    public static final int FENCE = 2;

    private final Opcode[] opcode;
    private final long[] wrId;
    private final long[] localAddress;
    private final int[] length;
    private final int[] lkey;
    private final long[] remoteAddress;
    private final int[] rkey;
    private final long[] operand;
    private final long[] swap;
    private final int[] flags;
    private int size;

    /**
     * Creates an empty list of {@code capacity} entries.
     *
     * @param capacity the most entries the list holds, positive
     */
    public WorkRequests(int capacity) {
        if (capacity <= 0) {
            throw new BadArgumentException("work request list capacity must be positive, got " + capacity);
        }
        opcode = new Opcode[capacity];
        wrId = new long[capacity];
        localAddress = new long[capacity];
        length = new int[capacity];
        lkey = new int[capacity];
        remoteAddress = new long[capacity];
        rkey = new int[capacity];
        operand = new long[capacity];
        swap = new long[capacity];
        flags = new int[capacity];
    }

    /** Empties the list. */
    public void clear() {
        size = 0;
    }

    /** {@return the number of entries} */
    public int size() {
        return size;
    }

    /** {@return the most entries the list holds} */
    public int capacity() {
        return opcode.length;
    }

    /**
     * Appends an RDMA READ of {@code length} bytes at {@code remoteAddress} into the local buffer.
     *
     * @param wrId          the id its completion carries
     * @param localAddress  where the data lands, in a registration of this node
     * @param length        the bytes to read
     * @param lkey          the local registration's lkey
     * @param remoteAddress the first byte to read
     * @param rkey          the remote registration's rkey
     * @param flags         {@link #SIGNALED}, {@link #FENCE} or 0
     * @return the entry's index
     * @throws BadArgumentException when the list is full
     */
    public int addRead(long wrId, long localAddress, int length, int lkey, long remoteAddress, int rkey, int flags) {
        return add(Opcode.READ, wrId, localAddress, length, lkey, remoteAddress, rkey, 0, 0, flags);
    }

    /**
     * Appends an RDMA WRITE of {@code length} bytes of the local buffer to {@code remoteAddress}.
     *
     * @param wrId          the id its completion carries
     * @param localAddress  the first byte to write, in a registration of this node
     * @param length        the bytes to write
     * @param lkey          the local registration's lkey
     * @param remoteAddress where they go
     * @param rkey          the remote registration's rkey
     * @param flags         {@link #SIGNALED}, {@link #FENCE} or 0
     * @return the entry's index
     * @throws BadArgumentException when the list is full
     */
    public int addWrite(long wrId, long localAddress, int length, int lkey, long remoteAddress, int rkey, int flags) {
        return add(Opcode.WRITE, wrId, localAddress, length, lkey, remoteAddress, rkey, 0, 0, flags);
    }

    /**
     * Appends an 8-byte compare-and-swap; the old remote value lands at {@code localAddress}.
     *
     * @param wrId          the id its completion carries
     * @param localAddress  where the old remote value lands, in a registration of this node
     * @param lkey          the local registration's lkey
     * @param remoteAddress the 8-byte remote word
     * @param rkey          the remote registration's rkey
     * @param expected      the value the remote word must hold for the swap to happen
     * @param desired       the value it then gets
     * @param flags         {@link #SIGNALED}, {@link #FENCE} or 0
     * @return the entry's index
     * @throws BadArgumentException when the list is full
     */
    public int addCompareAndSwap(long wrId, long localAddress, int lkey, long remoteAddress, int rkey,
                                 long expected, long desired, int flags) {
        return add(Opcode.COMPARE_AND_SWAP, wrId, localAddress, 8, lkey, remoteAddress, rkey, expected, desired, flags);
    }

    /**
     * Appends an 8-byte fetch-and-add; the old remote value lands at {@code localAddress}.
     *
     * @param wrId          the id its completion carries
     * @param localAddress  where the old remote value lands, in a registration of this node
     * @param lkey          the local registration's lkey
     * @param remoteAddress the 8-byte remote word
     * @param rkey          the remote registration's rkey
     * @param delta         what is added to it
     * @param flags         {@link #SIGNALED}, {@link #FENCE} or 0
     * @return the entry's index
     * @throws BadArgumentException when the list is full
     */
    public int addFetchAndAdd(long wrId, long localAddress, int lkey, long remoteAddress, int rkey, long delta, int flags) {
        return add(Opcode.FETCH_AND_ADD, wrId, localAddress, 8, lkey, remoteAddress, rkey, delta, 0, flags);
    }

    /**
     * Appends a SEND of {@code length} bytes of the local buffer: it consumes the oldest receive
     * posted on the peer's {@link ReceiveQueue} (one message, no remote address). Fails with
     * {@link CompletionStatus#RECEIVER_NOT_READY} when the peer has none posted, and with
     * {@link CompletionStatus#REMOTE_INVALID_REQUEST} when the message is longer than that receive's
     * buffer.
     *
     * @param wrId         the id its completion carries
     * @param localAddress the message's first byte, in a registration of this node
     * @param length       the message's length, 0 or more
     * @param lkey         the local registration's lkey
     * @param flags        {@link #SIGNALED}, {@link #FENCE} or 0
     * @return the entry's index
     * @throws BadArgumentException when {@code length} is negative or the list is full
     */
    public int addSend(long wrId, long localAddress, int length, int lkey, int flags) {
        requireLength(length);
        return add(Opcode.SEND, wrId, localAddress, length, lkey, 0, 0, 0, 0, flags);
    }

    /**
     * Appends an RDMA WRITE with immediate: {@code length} bytes of the local buffer go to
     * {@code remoteAddress} (checked against {@code rkey} as a WRITE is), then the request consumes
     * the oldest receive posted on the peer's {@link ReceiveQueue}, whose completion carries
     * {@code immediate}. Fails with {@link CompletionStatus#RECEIVER_NOT_READY}, writing nothing,
     * when the peer has no receive posted.
     *
     * @param wrId          the id its completion carries
     * @param localAddress  the first byte to write, in a registration of this node
     * @param length        the bytes to write, 0 or more
     * @param lkey          the local registration's lkey
     * @param remoteAddress where they go
     * @param rkey          the remote registration's rkey
     * @param immediate     32 bits for the peer's receive completion (sent big-endian, as verbs does)
     * @param flags         {@link #SIGNALED}, {@link #FENCE} or 0
     * @return the entry's index
     * @throws BadArgumentException when {@code length} is negative or the list is full
     */
    public int addWriteWithImmediate(long wrId, long localAddress, int length, int lkey, long remoteAddress, int rkey,
                                     int immediate, int flags) {
        requireLength(length);
        return add(Opcode.WRITE_WITH_IMMEDIATE, wrId, localAddress, length, lkey, remoteAddress, rkey,
                immediate & 0xFFFF_FFFFL, 0, flags);
    }

    /**
     * The checks every {@link QueuePair#post} applies before anything is posted (for fabric
     * implementations). Allocates nothing unless it throws.
     *
     * @param peer   the queue pair's peer node
     * @param closed whether the queue pair is closed
     * @param posted how many requests its send queue holds
     * @param more   how many the post adds
     * @param depth  the send queue's depth
     * @throws BadArgumentException when the queue pair is closed, or {@code posted + more} exceeds {@code depth}
     */
    public static void requirePostable(int peer, boolean closed, long posted, int more, int depth) {
        if (closed) {
            throw new BadArgumentException("queue pair to node " + peer + " is closed");
        }
        if (posted + more > depth) {
            throw new BadArgumentException("send queue to node " + peer + " is full: " + posted + " posted, " + more
                    + " more, depth " + depth);
        }
    }

    private static void requireLength(int length) {
        if (length < 0) {
            throw new BadArgumentException("message length must be 0 or more, got " + length);
        }
    }

    private int add(Opcode op, long id, long local, int len, int lk, long remote, int rk, long operand1, long operand2, int fl) {
        if (size == opcode.length) {
            throw new BadArgumentException("work request list is full (" + opcode.length + " entries)");
        }
        int i = size++;
        opcode[i] = op;
        wrId[i] = id;
        localAddress[i] = local;
        length[i] = len;
        lkey[i] = lk;
        remoteAddress[i] = remote;
        rkey[i] = rk;
        operand[i] = operand1;
        swap[i] = operand2;
        flags[i] = fl;
        return i;
    }

    /**
     * {@return the opcode of entry {@code i}}
     *
     * @param i an index below {@link #size()}
     */
    public Opcode opcode(int i) {
        return opcode[i];
    }

    /**
     * {@return the wr_id of entry {@code i}}
     *
     * @param i an index
     */
    public long wrId(int i) {
        return wrId[i];
    }

    /**
     * Sets the wr_id of entry {@code i}.
     *
     * @param i  an index
     * @param id the entry's new wr_id
     */
    public void wrId(int i, long id) {
        wrId[i] = id;
    }

    /**
     * {@return the local buffer's address of entry {@code i}}
     *
     * @param i an index
     */
    public long localAddress(int i) {
        return localAddress[i];
    }

    /**
     * {@return the byte count of entry {@code i} (8 for atomics)}
     *
     * @param i an index
     */
    public int length(int i) {
        return length[i];
    }

    /**
     * {@return the local buffer's lkey of entry {@code i}}
     *
     * @param i an index
     */
    public int lkey(int i) {
        return lkey[i];
    }

    /**
     * {@return the remote address of entry {@code i}}
     *
     * @param i an index
     */
    public long remoteAddress(int i) {
        return remoteAddress[i];
    }

    /**
     * {@return the remote rkey of entry {@code i}}
     *
     * @param i an index
     */
    public int rkey(int i) {
        return rkey[i];
    }

    /**
     * {@return the compare value of a CAS, or the delta of a FAA, of entry {@code i}}
     *
     * @param i an index
     */
    public long compareOrAdd(int i) {
        return operand[i];
    }

    /**
     * {@return the immediate of entry {@code i}, a {@link Opcode#WRITE_WITH_IMMEDIATE} entry}
     *
     * @param i an index
     */
    public int immediate(int i) {
        return (int) operand[i];
    }

    /**
     * {@return the swap value of entry {@code i}, a CAS}
     *
     * @param i an index
     */
    public long swap(int i) {
        return swap[i];
    }

    /**
     * {@return the flags of entry {@code i}}
     *
     * @param i an index
     */
    public int flags(int i) {
        return flags[i];
    }

    /**
     * Sets the flags of entry {@code i}.
     *
     * @param i an index
     * @param f the entry's new flags
     */
    public void flags(int i, int f) {
        flags[i] = f;
    }
}
