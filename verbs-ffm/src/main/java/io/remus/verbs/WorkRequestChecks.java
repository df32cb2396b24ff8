package io.remus.verbs;

import java.util.Objects;

/** The checks every work request passes before it is written into native memory. */
final class WorkRequestChecks {
    private WorkRequestChecks() {
    }

    /**
     * @param capacity a batch capacity
     * @param max      the queue's limit
     * @throws InvalidArgumentException if the capacity is not in {@code [1, max]}
     */
    static void checkCapacity(int capacity, int max) {
        if (capacity < 1 || capacity > max) {
            throw new InvalidArgumentException("batch capacity must be in [1, " + max + "], got " + capacity);
        }
    }

    /**
     * @param size     requests already in the batch
     * @param capacity the batch's capacity
     * @throws InvalidArgumentException if the batch is full
     */
    static void checkRoom(int size, int capacity) {
        if (size >= capacity) {
            throw new InvalidArgumentException("the batch is full (" + capacity + " requests): post it first");
        }
    }

    /**
     * @param length         a message length
     * @param maxMessageSize the port's largest message
     * @throws InvalidArgumentException if negative or too large
     */
    static void checkLength(int length, long maxMessageSize) {
        if (length < 0 || length > maxMessageSize) {
            throw new InvalidArgumentException("length must be in [0, " + maxMessageSize + "], got " + length);
        }
    }

    /**
     * @param region the local region of a request
     * @param pd     the queue's protection domain
     * @throws NullPointerException     if {@code region} is null
     * @throws InvalidArgumentException if the region is registered in another domain
     */
    static void checkRegion(MemoryRegion region, ProtectionDomain pd) {
        Objects.requireNonNull(region, "region");
        if (region.protectionDomain() != pd) {
            throw new InvalidArgumentException("the memory region is registered in another protection domain");
        }
    }

    /**
     * @param remoteAddress the remote address of an atomic
     * @throws InvalidArgumentException if it is not 8-byte aligned
     */
    static void checkAtomicAlignment(long remoteAddress) {
        if ((remoteAddress & 7) != 0) {
            throw new InvalidArgumentException("atomics need an 8-byte aligned remote address, got 0x"
                    + Long.toHexString(remoteAddress));
        }
    }

    /**
     * @param sgeCount entries the request already has
     * @param maxSge   the queue's limit
     * @throws InvalidArgumentException if one more entry does not fit
     */
    static void checkSgeRoom(int sgeCount, int maxSge) {
        if (sgeCount >= maxSge) {
            throw new InvalidArgumentException("too many scatter/gather entries: the queue allows " + maxSge + " per request");
        }
    }
}
