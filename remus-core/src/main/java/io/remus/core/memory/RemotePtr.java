package io.remus.core.memory;

import io.remus.core.error.BadArgumentException;

/**
 * A pointer into the memory of any node of the cluster, packed into one 64-bit word as in Remus.
 *
 * <pre>
 *  63            48 47                                             0
 * +----------------+------------------------------------------------+
 * |    node id     |              address on that node              |
 * +----------------+------------------------------------------------+
 * </pre>
 *
 * <p>Hot paths pass pointers as a plain {@code long}; this class only holds the static helpers that
 * pack, unpack and move them. The word {@code 0} is {@link #NULL}: node 0, address 0, which no
 * registered memory ever covers.
 */
public final class RemotePtr {
    /** The null pointer. */
    public static final long NULL = 0L;
    /** Bits of the address part. */
    public static final int ADDRESS_BITS = 48;
    /** Largest node id a pointer can carry. */
    public static final int MAX_NODE_ID = 0xFFFF;
    /** Mask selecting the address part. */
    public static final long ADDRESS_MASK = (1L << ADDRESS_BITS) - 1;

    private RemotePtr() {
    }

    /**
     * Checks that a pointer can carry a node id.
     *
     * @param nodeId a node id
     * @return {@code nodeId}
     * @throws BadArgumentException when a pointer cannot carry it (outside 0 to {@value #MAX_NODE_ID})
     */
    public static int requireNodeId(int nodeId) {
        if (nodeId < 0 || nodeId > MAX_NODE_ID) {
            throw new BadArgumentException("node id " + nodeId + " is outside 0.." + MAX_NODE_ID);
        }
        return nodeId;
    }

    /**
     * Packs a node id and an address.
     *
     * @param nodeId  the node, 0 to {@value #MAX_NODE_ID}
     * @param address the address on that node, below 2<sup>48</sup>
     * @return the pointer
     * @throws BadArgumentException when either part does not fit
     */
    public static long of(int nodeId, long address) {
        requireNodeId(nodeId);
        if ((address & ~ADDRESS_MASK) != 0) {
            throw new BadArgumentException("address 0x" + Long.toHexString(address) + " does not fit in 48 bits");
        }
        return ((long) nodeId << ADDRESS_BITS) | address;
    }

    /**
     * Decodes the node id of a pointer.
     *
     * @param ptr a pointer
     * @return its node id
     */
    public static int node(long ptr) {
        return (int) (ptr >>> ADDRESS_BITS);
    }

    /**
     * Decodes the address of a pointer.
     *
     * @param ptr a pointer
     * @return its address on its node
     */
    public static long address(long ptr) {
        return ptr & ADDRESS_MASK;
    }

    /**
     * Checks a range of memory that pointers will address: a registration, a published region, a
     * segment.
     *
     * @param address the first byte, below 2<sup>48</sup>
     * @param length  bytes, positive; {@code address + length} at most 2<sup>48</sup> (no wraparound)
     * @throws BadArgumentException naming the address and length when the range is empty, negative,
     *                              starts or ends past the 48-bit address space, or wraps around it
     */
    public static void requireRange(long address, long length) {
        if (length <= 0 || address < 0 || address > ADDRESS_MASK || length > (ADDRESS_MASK + 1) - address) {
            throw new BadArgumentException("memory range at 0x" + Long.toHexString(address) + " of " + length
                    + " bytes is not inside the 48-bit address space (positive length, end at most 0x"
                    + Long.toHexString(ADDRESS_MASK + 1) + ")");
        }
    }

    /**
     * Moves a pointer by {@code delta} bytes on the same node.
     *
     * @param ptr   a pointer
     * @param delta bytes to add (may be negative)
     * @return the moved pointer
     * @throws BadArgumentException when the address would leave 0..2<sup>48</sup>-1
     */
    public static long offset(long ptr, long delta) {
        long moved = address(ptr) + delta;
        if ((moved & ~ADDRESS_MASK) != 0) {
            throw new BadArgumentException("offset " + delta + " moves " + toString(ptr) + " outside the 48-bit address space");
        }
        return (ptr & ~ADDRESS_MASK) | moved;
    }

    /**
     * Tells whether a pointer is null.
     *
     * @param ptr a pointer
     * @return whether it is {@link #NULL}
     */
    public static boolean isNull(long ptr) {
        return ptr == NULL;
    }

    /**
     * Describes a pointer.
     *
     * @param ptr a pointer
     * @return {@code "node:0xaddress"}, or {@code "null"}
     */
    public static String toString(long ptr) {
        return ptr == NULL ? "null" : node(ptr) + ":0x" + Long.toHexString(address(ptr));
    }
}
