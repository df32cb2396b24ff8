package io.remus.core.fabric;

import java.lang.foreign.MemorySegment;

/**
 * Memory registered with a node's NIC (a verbs memory region): the CPU reaches it through
 * {@link #segment()}, the local NIC through {@link #lkey()}, remote NICs through {@link #rkey()}.
 */
public interface RegisteredMemory extends AutoCloseable {
    /** {@return the registered bytes} */
    MemorySegment segment();

    /** {@return the address of the first byte, as peers address it} */
    long address();

    /** {@return the length in bytes} */
    long length();

    /** {@return the local key, for work requests' local buffers} */
    int lkey();

    /** {@return the remote key, for peers' work requests} */
    int rkey();

    /**
     * Tells whether a range lies inside this registration.
     *
     * @param address first byte
     * @param length  bytes
     * @return whether {@code [address, address + length)} lies inside this registration
     */
    default boolean contains(long address, long length) {
        return length >= 0 && address >= address() && address - address() <= length() - length;
    }

    /** Deregisters (and frees memory that {@link FabricNode#allocate(long)} allocated). Idempotent. */
    @Override
    void close();
}
