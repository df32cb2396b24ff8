package io.remus.core.fabric;

import io.remus.core.error.BadArgumentException;

/**
 * A reusable list of receive work requests posted together with one
 * {@link ReceiveQueue#post(ReceiveRequests)} (like a chained {@code ibv_recv_wr} list): each entry
 * is a buffer in a registration of the receiving node (address, length, lkey) and the 64-bit
 * {@code wrId} its receive completion carries. Stored as parallel primitive arrays: filling and
 * reading it allocates nothing. Not thread-safe.
 */
public final class ReceiveRequests {
    private final long[] wrId;
    private final long[] address;
    private final int[] length;
    private final int[] lkey;
    private int size;

    /**
     * Creates an empty list of {@code capacity} entries.
     *
     * @param capacity the most entries the list holds, positive
     */
    public ReceiveRequests(int capacity) {
        if (capacity <= 0) {
            throw new BadArgumentException("receive request list capacity must be positive, got " + capacity);
        }
        wrId = new long[capacity];
        address = new long[capacity];
        length = new int[capacity];
        lkey = new int[capacity];
    }

    /**
     * Appends a receive buffer.
     *
     * @param wrId    the id its receive completion carries
     * @param address the buffer's first byte
     * @param length  the buffer's length, 0 or more: the longest {@link Opcode#SEND} it takes (a
     *                {@link Opcode#WRITE_WITH_IMMEDIATE} consumes it whatever its length)
     * @param lkey    the lkey of the registration that covers the buffer
     * @return the entry's index
     * @throws BadArgumentException when {@code length} is negative or the list is full
     */
    public int add(long wrId, long address, int length, int lkey) {
        if (length < 0) {
            throw new BadArgumentException("receive buffer length must be 0 or more, got " + length);
        }
        if (size == this.wrId.length) {
            throw new BadArgumentException("receive request list is full (" + this.wrId.length + " entries)");
        }
        int i = size++;
        this.wrId[i] = wrId;
        this.address[i] = address;
        this.length[i] = length;
        this.lkey[i] = lkey;
        return i;
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
        return wrId.length;
    }

    /**
     * {@return the wr_id of entry {@code i}}
     *
     * @param i an index below {@link #size()}
     */
    public long wrId(int i) {
        return wrId[i];
    }

    /**
     * {@return the buffer's address of entry {@code i}}
     *
     * @param i an index
     */
    public long address(int i) {
        return address[i];
    }

    /**
     * {@return the buffer's length of entry {@code i}}
     *
     * @param i an index
     */
    public int length(int i) {
        return length[i];
    }

    /**
     * {@return the buffer's lkey of entry {@code i}}
     *
     * @param i an index
     */
    public int lkey(int i) {
        return lkey[i];
    }

    /**
     * {@return the refusal of a post whose receive {@code i} lies in no registration of the node} (for
     * fabric implementations)
     *
     * @param i      an index below {@link #size()}
     * @param nodeId the node of the receive queue
     */
    public BadArgumentException notCovered(int i, int nodeId) {
        return new BadArgumentException("receive buffer " + i + " (address " + address[i] + ", length " + length[i]
                + ", lkey " + lkey[i] + ") is not covered by a registration of node " + nodeId);
    }

    /**
     * The room check every {@link ReceiveQueue#post} applies (for fabric implementations). Allocates
     * nothing unless it throws.
     *
     * @param nodeId      the node of the receive queue
     * @param outstanding how many receives it holds (posted and not yet polled)
     * @param more        how many the post adds
     * @param depth       its depth
     * @throws BadArgumentException when {@code outstanding + more} exceeds {@code depth}
     */
    public static void requireRoom(int nodeId, long outstanding, int more, int depth) {
        if (outstanding + more > depth) {
            throw new BadArgumentException("receive queue of node " + nodeId + " is full: " + outstanding
                    + " outstanding, " + more + " more, depth " + depth);
        }
    }
}
