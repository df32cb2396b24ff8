package io.remus.core.fabric;

import io.remus.core.BadArgumentException;

/**
 * The checks both fabrics apply to registered memory: a new registration's length, and the key and
 * bounds check a NIC applies to a work request's buffer (the local buffer by {@code lkey}, the
 * remote target by {@code rkey}).
 */
public final class RegistrationChecks {
    private RegistrationChecks() {
    }

    /**
     * @param bytes the length of memory to allocate and register
     * @return {@code bytes}
     * @throws BadArgumentException when it is not positive
     */
    public static long requirePositiveLength(long bytes) {
        if (bytes <= 0) {
            throw new BadArgumentException("registered memory length must be positive, got " + bytes);
        }
        return bytes;
    }

    /**
     * @param <M>     the fabric's registration type
     * @param regions a node's registrations
     * @param lkey    a local key
     * @param address first byte
     * @param length  bytes
     * @return the registration with local key {@code lkey} covering the range, or {@code null}
     */
    public static <M extends RegisteredMemory> M coveringLocal(M[] regions, int lkey, long address, long length) {
        for (M m : regions) {
            if (m.lkey() == lkey && m.contains(address, length)) {
                return m;
            }
        }
        return null;
    }

    /**
     * @param <M>     the fabric's registration type
     * @param regions a node's registrations
     * @param rkey    a remote key
     * @param address first byte
     * @param length  bytes
     * @return the registration with remote key {@code rkey} covering the range, or {@code null}
     */
    public static <M extends RegisteredMemory> M coveringRemote(M[] regions, int rkey, long address, long length) {
        for (M m : regions) {
            if (m.rkey() == rkey && m.contains(address, length)) {
                return m;
            }
        }
        return null;
    }
}
